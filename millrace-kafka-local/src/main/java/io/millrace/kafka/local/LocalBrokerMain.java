package io.millrace.kafka.local;

/**
 * Entry point of the local broker's child JVM: runs {@code kafka.Kafka} with the given server.properties and halts
 * as soon as the JVM that started it is gone, so that a parent killed without its shutdown hooks (SIGKILL) does not
 * leave a broker behind.
 */
public final class LocalBrokerMain {
    private LocalBrokerMain() {}

    public static void main(String[] args) throws Exception {
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
        kafka.Kafka.main(args);
    }
}
