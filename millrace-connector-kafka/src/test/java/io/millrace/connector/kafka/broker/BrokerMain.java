package io.millrace.connector.kafka.broker;

/**
 * Entry point of the test broker's child JVM: runs {@code kafka.Kafka} with the given server.properties and halts
 * as soon as the JVM that started it is gone, so that a test JVM killed without its shutdown hooks does not leave a
 * broker behind.
 */
public final class BrokerMain {
    private BrokerMain() {}

    public static void main(String[] args) throws Exception {
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
        kafka.Kafka.main(args);
    }
}
