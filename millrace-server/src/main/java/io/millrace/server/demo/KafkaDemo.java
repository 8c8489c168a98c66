package io.millrace.server.demo;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.Clock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.kafka.KafkaRecordDeserializer;
import io.millrace.connector.kafka.KafkaRecordSerializer;
import io.millrace.connector.kafka.KafkaSink;
import io.millrace.connector.kafka.KafkaSource;
import io.millrace.connector.kafka.StartingOffsets;
import io.millrace.kafka.local.LocalKafkaBroker;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.SimulatorConfig;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * The demo through Kafka: a feed job writes the simulator's events to a topic (one producer, keyed by machine, the
 * event time as the record timestamp), and the demo's pipeline reads them back from that topic. Without a broker of
 * the user's, a {@link LocalKafkaBroker} is started in a temporary directory and removed at {@link #close}. The demo
 * reads from the end offsets the topic had when it was opened, so only this run's events.
 */
public final class KafkaDemo implements DemoTransport {
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final LocalKafkaBroker localBroker;
    private final String bootstrapServers;
    private final String topic;
    private final Map<TopicPartition, Long> startOffsets;

    private KafkaDemo(LocalKafkaBroker localBroker, String bootstrapServers, String topic, Map<TopicPartition, Long> startOffsets) {
        this.localBroker = localBroker;
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.startOffsets = startOffsets;
    }

    /**
     * Connects to {@code bootstrapServers}, or starts a local broker when it is null; creates {@code topic} with
     * {@code partitions} partitions unless it exists, and notes its end offsets.
     */
    public static KafkaDemo open(String bootstrapServers, String topic, int partitions, PrintStream out) {
        LocalKafkaBroker local = null;
        String servers = bootstrapServers;
        if (servers == null) {
            out.println("Kafka: starting a local broker (KRaft, one node) ...");
            local = LocalKafkaBroker.inTemporaryDirectory();
            try {
                local.start();
            } catch (RuntimeException e) {
                local.close();
                throw e;
            }
            servers = local.bootstrapServers();
            out.println("Kafka: local broker at " + servers);
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis()))) {
            if (!admin.listTopics().names().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).contains(topic)) {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                out.println("Kafka: created topic " + topic + " with " + partitions + " partitions");
            }
            Map<TopicPartition, Long> ends = endOffsets(admin, topic);
            return new KafkaDemo(local, servers, topic, ends);
        } catch (Exception e) {
            if (local != null) {
                local.close();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("Kafka at " + servers + ": could not prepare topic " + topic + ": " + e.getMessage(), e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String topic() {
        return topic;
    }

    /** The feed job: the simulator's events to the topic, at least once, from one producer so that each partition is in event-time order up to the simulator's disorder. */
    public Pipeline feed(SimulatorConfig sim, Clock clock) {
        FactorySimulator simulator = new FactorySimulator(sim);
        Pipeline feed = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        KafkaSink<FactoryEvent> sink = KafkaSink.builder(KafkaRecordSerializer.<FactoryEvent>to(topic,
                        e -> e.machineId().getBytes(StandardCharsets.UTF_8), FactoryEventCodec::encode))
                .bootstrapServers(bootstrapServers)
                .atLeastOnce()
                .build();
        feed.fromSource(simulator, simulator.watermarkStrategy(), "simulator").uid("simulator")
                .sinkTo(sink).name("to-kafka").uid("to-kafka");
        return feed;
    }

    /** The demo pipeline's input: the topic from the offsets noted at {@link #open}; event time from the payload. */
    public FactoryDemo.Input input(SimulatorConfig sim) {
        KafkaSource<FactoryEvent> source = KafkaSource.builder(KafkaRecordDeserializer.values(FactoryEventCodec::decode))
                .bootstrapServers(bootstrapServers)
                .topics(topic)
                .startingOffsets(StartingOffsets.given(startOffsets, StartingOffsets.earliest()))
                .build();
        WatermarkStrategy<FactoryEvent> watermarks = WatermarkStrategy.<FactoryEvent>boundedOutOfOrderness(sim.maxOutOfOrderness())
                .withTimestampAssigner((e, recordTimestamp) -> e.eventTime())
                .withIdleness(Duration.ofSeconds(5));
        return pipeline -> pipeline.fromSource(source, watermarks, BadRecordPolicy.FAIL, "factory-floor").uid("factory-floor");
    }

    @Override
    public String description() {
        return "through Kafka";
    }

    @Override
    public JobHandle startFeed(SimulatorConfig sim, Clock clock) {
        return feed(sim, clock).executeAsync("factory-feed");
    }

    /** Once the pipeline has read as many records as the feed wrote to the topic. */
    @Override
    public boolean drained(JobResult fed, JobMetrics demo, long millisSinceFeedEnded) {
        return demo.sum("factory-floor", om -> om.recordsOut()) >= fed.metrics().sum("to-kafka", om -> om.recordsIn());
    }

    @Override
    public void printSummary(PrintStream out, JobResult fed, JobResult demo) {
        out.printf(java.util.Locale.ROOT, "  kafka           %,d events written to %s on %s, %,d read back%n",
                recordsSinceOpen(), topic, bootstrapServers, demo.metrics().sum("factory-floor", om -> om.recordsOut()));
        out.printf(java.util.Locale.ROOT, "                  (the job was stopped once it had read them all: windows still open then are not emitted)%n");
    }

    /** Records in the topic since {@link #open}. */
    public long recordsSinceOpen() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis()))) {
            long n = 0;
            for (Map.Entry<TopicPartition, Long> e : endOffsets(admin, topic).entrySet()) {
                n += e.getValue() - startOffsets.getOrDefault(e.getKey(), 0L);
            }
            return n;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("Kafka at " + bootstrapServers + ": could not read the end offsets of " + topic, e);
        }
    }

    @Override
    public void close() {
        if (localBroker != null) {
            localBroker.close();
        }
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) throws Exception {
        TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames()
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }
}
