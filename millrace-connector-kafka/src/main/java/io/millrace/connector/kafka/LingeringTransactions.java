package io.millrace.connector.kafka;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * Finds the open transactions a subtask's earlier runs left behind and aborts them. The brokers list the ongoing
 * transactions whose id matches the subtask's ({@link TransactionalIds#patternOf}); those numbered after the restored
 * checkpoint (all of them on a fresh start) belong to no complete checkpoint. Each is aborted by registering its id
 * again ({@code initTransactions}), which also fences any producer of an earlier run still using that id.
 */
final class LingeringTransactions {
    private final Map<String, Object> producerProperties;
    private final TransactionalIds ids;
    private final String sinkName;

    LingeringTransactions(Map<String, Object> producerProperties, TransactionalIds ids, String sinkName) {
        this.producerProperties = producerProperties;
        this.ids = ids;
        this.sinkName = sinkName;
    }

    /** Aborts the ongoing transactions of {@code subtask} numbered after {@code restoredCheckpointId}; returns their ids. */
    List<String> abortAfter(int subtask, long restoredCheckpointId) throws Exception {
        List<String> lingering = ongoing(subtask).stream()
                .filter(id -> ids.numberOf(subtask, id) > restoredCheckpointId)
                .sorted().toList();
        for (String id : lingering) {
            TransactionalProducer.initialized(producerProperties, id).close();
        }
        return lingering;
    }

    /** The ids of the ongoing transactions of {@code subtask}. */
    List<String> ongoing(int subtask) throws Exception {
        Map<String, Object> adminProps = new LinkedHashMap<>(producerProperties);
        adminProps.keySet().removeIf(k -> !AdminClientConfig.configNames().contains(k));
        try (Admin admin = Admin.create(adminProps)) {
            ListTransactionsOptions options = new ListTransactionsOptions()
                    .filterStates(List.of(TransactionState.ONGOING))
                    .filterOnTransactionalIdPattern(ids.patternOf(subtask));
            return admin.listTransactions(options).all().get(60, TimeUnit.SECONDS).stream()
                    .map(TransactionListing::transactionalId)
                    .filter(id -> ids.numberOf(subtask, id) >= 0)
                    .toList();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Kafka sink '" + sinkName + "': no answer from bootstrap.servers="
                    + producerProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + " within 60 s listing open transactions", e);
        }
    }
}
