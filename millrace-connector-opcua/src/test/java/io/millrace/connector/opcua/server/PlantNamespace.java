package io.millrace.connector.opcua.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * The test server's address space: folder {@code Plant} under Objects, with the variables of {@link TestOpcUaServer}
 * in sub-folders. Values are set by the test; the server samples them for its subscriptions.
 */
final class PlantNamespace extends ManagedNamespaceWithLifecycle {
    static final String URI = "urn:millrace:test:plant";

    private final SubscriptionModel subscriptions;
    private final Map<String, UaVariableNode> variables = new LinkedHashMap<>();
    private final Map<String, DataValue> initial;
    private final Map<NodeId, java.util.concurrent.atomic.AtomicLong> reads = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param initial the values the variables start with, by path (e.g. {@code Line1/Temperature}); a variable not in it is left out */
    PlantNamespace(OpcUaServer server, Map<String, DataValue> initial) {
        super(server, URI);
        this.initial = initial;
        this.subscriptions = new SubscriptionModel(server, this);
        getLifecycleManager().addLifecycle(subscriptions);
        getLifecycleManager().addStartupTask(this::createNodes);
    }

    private void createNodes() {
        UaFolderNode plant = folder("Plant", "Plant");
        plant.addReference(new Reference(plant.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(), false));
        Map<String, UaFolderNode> folders = new LinkedHashMap<>();
        for (TestOpcUaServer.Variable v : TestOpcUaServer.VARIABLES) {
            if (!initial.containsKey(v.path())) {
                continue;
            }
            String folderPath = v.path().substring(0, v.path().lastIndexOf('/'));
            UaFolderNode folder = folders.computeIfAbsent(folderPath, p -> {
                int slash = p.lastIndexOf('/');
                UaFolderNode parent = slash < 0 ? plant : folders.get(p.substring(0, slash));
                UaFolderNode f = folder("Plant/" + p, p.substring(slash + 1));
                parent.addOrganizes(f);
                return f;
            });
            String name = v.path().substring(v.path().lastIndexOf('/') + 1);
            UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId("Plant/" + v.path()))
                    .setAccessLevel(AccessLevel.READ_WRITE)
                    .setUserAccessLevel(AccessLevel.READ_WRITE)
                    .setBrowseName(newQualifiedName(name))
                    .setDisplayName(LocalizedText.english(v.displayName()))
                    .setDataType(v.dataType())
                    .setTypeDefinition(NodeIds.BaseDataVariableType)
                    .build();
            node.setValue(initial.get(v.path()));
            getNodeManager().addNode(node);
            folder.addOrganizes(node);
            variables.put(v.path(), node);
        }
    }

    private UaFolderNode folder(String id, String name) {
        UaFolderNode f = new UaFolderNode(getNodeContext(), newNodeId(id), newQualifiedName(name), LocalizedText.english(name));
        getNodeManager().addNode(f);
        return f;
    }

    void set(String path, DataValue value) {
        UaVariableNode node = variables.get(path);
        if (node != null) {
            node.setValue(value);
        }
    }

    NodeId nodeId(String path) {
        return newNodeId("Plant/" + path);
    }

    /** Counts the reads of each node: the subscriptions' sampling reads through here. */
    @Override
    public List<DataValue> read(org.eclipse.milo.opcua.sdk.server.AddressSpace.ReadContext context, Double maxAge,
            org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn timestamps,
            List<org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId> ids) {
        List<DataValue> values = super.read(context, maxAge, timestamps, ids);
        for (var id : ids) {
            reads.computeIfAbsent(id.getNodeId(), k -> new java.util.concurrent.atomic.AtomicLong()).incrementAndGet();
        }
        return values;
    }

    long reads(String path) {
        var n = reads.get(nodeId(path));
        return n == null ? 0 : n.get();
    }

    @Override
    public void onDataItemsCreated(List<DataItem> items) {
        subscriptions.onDataItemsCreated(items);
    }

    @Override
    public void onDataItemsModified(List<DataItem> items) {
        subscriptions.onDataItemsModified(items);
    }

    @Override
    public void onDataItemsDeleted(List<DataItem> items) {
        subscriptions.onDataItemsDeleted(items);
    }

    @Override
    public void onMonitoringModeChanged(List<MonitoredItem> items) {
        subscriptions.onMonitoringModeChanged(items);
    }
}
