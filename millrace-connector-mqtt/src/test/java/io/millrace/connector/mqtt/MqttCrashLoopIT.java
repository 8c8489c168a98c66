package io.millrace.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.millrace.testing.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * No loss and no repeat through MQTT: {@link MqttCrashLoopJob} reads numbered QoS 1 messages through two persistent
 * sessions into the exactly-once file sink, in a child JVM killed with SIGKILL at random moments 20 times while a
 * publisher keeps publishing, and started again each time with nothing but its directory. The committed output holds
 * every published message exactly once. Then the broker itself is restarted under a running job: every message the
 * broker acknowledged to the publisher is in the output, once.
 */
class MqttCrashLoopIT {
    static final int KILLS = 20;

    @TempDir
    static Path brokerDir;
    static Mosquitto broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = Mosquitto.start(brokerDir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
    }

    @Test
    void whenKilledTwentyTimesWhileMessagesArrive_thenTheCommittedOutputHasEveryPublishedMessageExactlyOnce() throws Exception {
        String prefix = "crash";
        TestClient.prepareSession(broker, prefix + "-0", 1, prefix + "/a/#");
        TestClient.prepareSession(broker, prefix + "-1", 1, prefix + "/b/#");
        Publisher publisher = new Publisher(prefix, 0, 3600, 100);   // while the job is killed again and again
        publisher.start();
        Random random = new Random(38);
        int killed = 0;
        try {
            while (killed < KILLS) {
                Process job = start(prefix);
                if (job.waitFor(1200 + random.nextInt(2300), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("the job ended by itself with exit code " + job.exitValue() + ", see " + dir.resolve("job.log"));
                }
                job.destroyForcibly(); // SIGKILL
                assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
                killed++;
            }
            int committedByKilledRuns = output().size();
            publisher.join(120_000);
            assertThat(publisher.failure.get()).isNull();
            Publisher whileDown = new Publisher(prefix, 3600, 4000, 1000);   // queued by the broker while no run is up
            whileDown.start();
            whileDown.join(60_000);
            assertThat(whileDown.failure.get()).isNull();
            publisher.published.addAll(whileDown.published);
            Process last = start(prefix);
            Await.until("every published message in the committed output, see " + dir.resolve("job.log"), Duration.ofSeconds(120),
                    () -> distinctOutput().size() >= publisher.published.size() || !last.isAlive());
            Files.writeString(dir.resolve("stop"), "");
            assertThat(last.waitFor(60, TimeUnit.SECONDS)).as("the last run stops").isTrue();
            assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
            long redelivered = Files.readAllLines(dir.resolve("job.log")).stream().filter(l -> l.startsWith("redelivered ")).count();
            LoggerFactory.getLogger(MqttCrashLoopIT.class).info("{} kills; {} ids committed by the killed runs; {} messages the broker sent"
                    + " again were dropped by the job's keyed state", killed, committedByKilledRuns, redelivered);
            assertThat(committedByKilledRuns).as("output committed by the killed runs").isBetween(1, 3600);
        } finally {
            publisher.interrupt();
        }
        assertThat(killed).isEqualTo(KILLS);
        assertThat(publisher.published).hasSize(4000);
        assertThat(output()).as("the committed output").containsExactlyInAnyOrderElementsOf(publisher.published);
    }

    @Test
    void whenTheBrokerRestartsUnderARunningJob_thenEveryMessageTheBrokerAcknowledgedIsInTheOutputOnce() throws Exception {
        String prefix = "bounce";
        TestClient.prepareSession(broker, prefix + "-0", 1, prefix + "/a/#");
        TestClient.prepareSession(broker, prefix + "-1", 1, prefix + "/b/#");
        Process job = start(prefix);
        Publisher publisher = new Publisher(prefix, 0, 1500, 150);
        publisher.start();
        try {
            Await.until("a first committed output", Duration.ofSeconds(60), () -> output().size() > 0 || !job.isAlive());
            assertThat(job.isAlive()).as("the job runs, see %s", dir.resolve("job.log")).isTrue();
            broker.restart();
            Set<String> acknowledgedBeforeRestart = Set.copyOf(publisher.published);
            publisher.join(120_000);
            assertThat(publisher.isAlive()).isFalse();
            Await.until("every acknowledged message in the output, see " + dir.resolve("job.log"), Duration.ofSeconds(60),
                    () -> distinctOutput().containsAll(publisher.published) || !job.isAlive());
            Files.writeString(dir.resolve("stop"), "");
            assertThat(job.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(job.exitValue()).as("exit code, see %s", dir.resolve("job.log")).isZero();
            LoggerFactory.getLogger(MqttCrashLoopIT.class).info("broker restart: {} messages acknowledged before it, {} in all, {} not"
                    + " acknowledged (publisher saw the outage)", acknowledgedBeforeRestart.size(), publisher.published.size(), publisher.refused.size());
            assertThat(acknowledgedBeforeRestart).isNotEmpty();
        } finally {
            publisher.interrupt();
            job.destroyForcibly();
        }
        List<String> out = output();
        assertThat(out).as("no message twice in the output").doesNotHaveDuplicates();
        assertThat(out).as("every message the broker acknowledged").containsAll(publisher.published);
        Set<String> sent = new HashSet<>(publisher.published);
        sent.addAll(publisher.refused);
        assertThat(sent).as("nothing that was not published").containsAll(out);
        assertThat(publisher.published.size()).as("acknowledged messages").isGreaterThan(1000);
    }

    private Process start(String prefix) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                MqttCrashLoopJob.class.getName(), dir.toString(), Integer.toString(broker.port()), prefix)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("job.log").toFile()))
                .start();
    }

    /** Every line of every committed part file. */
    private List<String> output() {
        Path out = dir.resolve("out");
        if (!Files.isDirectory(out)) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        } catch (IOException e) {
            return List.of(); // a part renamed while listing: read again next time
        }
        return lines;
    }

    private Set<String> distinctOutput() {
        return new HashSet<>(output());
    }

    /**
     * Publishes the QoS 1 messages numbered {@code from} to {@code to} (exclusive), alternating between {@code <prefix>/a/m<k>} and {@code <prefix>/b/m<k>},
     * their payload their id, at about {@code perSecond}; reconnects by itself (the broker may restart). Remembers which
     * the broker acknowledged (PUBACK) and which it did not.
     */
    private static final class Publisher extends Thread {
        final Set<String> published = ConcurrentHashMap.newKeySet();
        final Set<String> refused = ConcurrentHashMap.newKeySet();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final String prefix;
        private final int from;
        private final int to;
        private final long nanosPerMessage;

        Publisher(String prefix, int from, int to, int perSecond) {
            super(prefix + "-publisher");
            setDaemon(true);
            this.prefix = prefix;
            this.from = from;
            this.to = to;
            this.nanosPerMessage = 1_000_000_000L / perSecond;
        }

        @Override
        public void run() {
            Mqtt5BlockingClient c = MqttClient.builder().useMqttVersion5().identifier(prefix + "-publisher").serverHost("127.0.0.1")
                    .serverPort(broker.port()).automaticReconnect().initialDelay(50, TimeUnit.MILLISECONDS).maxDelay(500, TimeUnit.MILLISECONDS)
                    .applyAutomaticReconnect().buildBlocking();
            try {
                c.connectWith().cleanStart(true).sessionExpiryInterval(600).send();
                long next = System.nanoTime();
                for (int i = from; i < to && !isInterrupted(); i++) {
                    String side = i % 2 == 0 ? "a" : "b";
                    String id = side + "-" + i;
                    try {
                        c.publishWith().topic(prefix + "/" + side + "/m" + (i % 7)).payload(id.getBytes(StandardCharsets.UTF_8))
                                .qos(MqttQos.AT_LEAST_ONCE).send();
                        published.add(id);
                    } catch (RuntimeException e) {
                        refused.add(id); // the broker went away before acknowledging: it may or may not have the message
                    }
                    next += nanosPerMessage;
                    LockSupport.parkNanos(next - System.nanoTime()); // pacing, not waiting for a condition
                }
                c.disconnect();
            } catch (Throwable t) {
                failure.set(t);
            }
        }
    }
}
