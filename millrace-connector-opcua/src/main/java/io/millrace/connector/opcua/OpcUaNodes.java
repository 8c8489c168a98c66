package io.millrace.connector.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.milo.opcua.sdk.client.BrowseHelper;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;

/** Finds the variables a source monitors: the listed ones, checked to be variables, and those below browsed folders. */
final class OpcUaNodes {
    private OpcUaNodes() {}

    /** A variable to monitor, with the names a data change carries. */
    record Node(NodeId id, String text, String browseName, String displayName) {}

    static List<Node> resolve(OpcUaClient client, OpcUaOptions o, String sourceName) throws Exception {
        String prefix = "OPC UA source '" + sourceName + "': ";
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (Node n : listed(client, o, prefix)) {
            nodes.putIfAbsent(n.text(), n);
        }
        for (String root : o.browseRoots()) {
            List<Node> found = browse(client, NodeId.parse(root), prefix, o.endpoint());
            if (found.isEmpty()) {
                throw new IllegalStateException(prefix + "option 'browse': there are no variables below " + root + " at " + o.endpoint());
            }
            for (Node n : found) {
                nodes.putIfAbsent(n.text(), n);
            }
        }
        return new ArrayList<>(nodes.values());
    }

    private static List<Node> listed(OpcUaClient client, OpcUaOptions o, String prefix) throws Exception {
        List<Node> out = new ArrayList<>();
        if (o.nodeIds().isEmpty()) {
            return out;
        }
        List<ReadValueId> reads = new ArrayList<>();
        for (String id : o.nodeIds()) {
            NodeId n = NodeId.parse(id);
            reads.add(new ReadValueId(n, AttributeId.NodeClass.uid(), null, QualifiedName.NULL_VALUE));
            reads.add(new ReadValueId(n, AttributeId.BrowseName.uid(), null, QualifiedName.NULL_VALUE));
            reads.add(new ReadValueId(n, AttributeId.DisplayName.uid(), null, QualifiedName.NULL_VALUE));
        }
        DataValue[] values = client.read(0, TimestampsToReturn.Neither, reads).getResults();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < o.nodeIds().size(); i++) {
            String id = o.nodeIds().get(i);
            DataValue nodeClass = values[3 * i];
            if (!nodeClass.getStatusCode().isGood()) {
                problems.add(id + " (" + OpcUaValues.statusName(nodeClass.getStatusCode().value()) + ")");
                continue;
            }
            Object cls = nodeClass.getValue().value();
            int code = cls instanceof Number num ? num.intValue() : cls instanceof NodeClass nc ? nc.getValue() : -1;
            if (code != NodeClass.Variable.getValue()) {
                problems.add(id + " (" + (NodeClass.from(code) == null ? "class " + code : NodeClass.from(code)) + " node, not a variable"
                        + (code == NodeClass.Object.getValue() ? ": give folders with option 'browse'" : "") + ")");
                continue;
            }
            NodeId parsed = NodeId.parse(id);
            String text = parsed.toParseableString();
            out.add(new Node(parsed, text, name(values[3 * i + 1].getValue().value(), text), text(values[3 * i + 2].getValue().value(), text)));
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(prefix + "option 'nodes': cannot monitor " + String.join(", ", problems) + " at " + o.endpoint());
        }
        return out;
    }

    /** Every variable below {@code root}, depth first in browse order, not descending into variables. */
    private static List<Node> browse(OpcUaClient client, NodeId root, String prefix, String endpoint) throws Exception {
        List<Node> out = new ArrayList<>();
        Set<NodeId> seen = new HashSet<>();
        Deque<NodeId> toBrowse = new ArrayDeque<>();
        toBrowse.push(root);
        seen.add(root);
        boolean first = true;
        while (!toBrowse.isEmpty()) {
            NodeId parent = toBrowse.pop();
            BrowseDescription d = new BrowseDescription(parent, BrowseDirection.Forward, NodeIds.HierarchicalReferences, true,
                    uint(NodeClass.Object.getValue() | NodeClass.Variable.getValue()), uint(BrowseResultMask.All.getValue()));
            List<ReferenceDescription> refs;
            try {
                refs = BrowseHelper.browse(client, d, uint(0)).get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(prefix + "option 'browse': cannot browse " + parent.toParseableString() + " at " + endpoint + ": "
                        + e.getCause(), e);
            }
            if (first && refs.isEmpty()) {
                checkExists(client, root, prefix, endpoint);
            }
            first = false;
            List<NodeId> objects = new ArrayList<>();
            for (ReferenceDescription r : refs) {
                if (NodeIds.HasProperty.equals(r.getReferenceTypeId())) {
                    continue;
                }
                Optional<NodeId> target = r.getNodeId().toNodeId(client.getNamespaceTable());
                if (target.isEmpty() || !seen.add(target.get())) {
                    continue;
                }
                String text = target.get().toParseableString();
                if (r.getNodeClass() == NodeClass.Variable) {
                    out.add(new Node(target.get(), text, name(r.getBrowseName(), text), text(r.getDisplayName(), text)));
                } else if (r.getNodeClass() == NodeClass.Object) {
                    objects.add(target.get());
                }
            }
            for (int i = objects.size() - 1; i >= 0; i--) {
                toBrowse.push(objects.get(i));
            }
        }
        return out;
    }

    private static void checkExists(OpcUaClient client, NodeId root, String prefix, String endpoint) throws Exception {
        DataValue v = client.read(0, TimestampsToReturn.Neither,
                List.of(new ReadValueId(root, AttributeId.NodeClass.uid(), null, QualifiedName.NULL_VALUE))).getResults()[0];
        if (!v.getStatusCode().isGood()) {
            throw new IllegalStateException(prefix + "option 'browse': cannot browse " + root.toParseableString() + " at " + endpoint + " ("
                    + OpcUaValues.statusName(v.getStatusCode().value()) + ")");
        }
    }

    private static String name(Object browseName, String fallback) {
        return browseName instanceof QualifiedName q && q.name() != null ? q.name() : fallback;
    }

    private static String text(Object displayName, String fallback) {
        return displayName instanceof LocalizedText t && t.text() != null ? t.text() : fallback;
    }
}
