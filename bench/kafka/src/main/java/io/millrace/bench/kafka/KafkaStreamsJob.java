package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The Kafka suite's job on Kafka Streams: {@code exactly_once_v2}, {@code commit.interval.ms=1000}, one stream
 * thread per unit of parallelism. Pass-through is {@code stream(input).to(output)}; the count is
 * {@code groupByKey().windowedBy(10 s, no grace).count().suppress(untilWindowCloses(unbounded()))}, so each window
 * is written once, when stream time passes its end (the other engines' event-time windows fire when the watermark
 * does). {@code emitStrategy(onWindowClose())} would do the same with less buffering, but it looks for closed
 * windows at most once a second of wall-clock time and only when a record arrives, so the last windows of a topic
 * whose input has ended are never written. The window store and the suppression buffer are backed by changelog
 * topics, as Kafka Streams' fault tolerance requires. Runs until killed.
 */
public final class KafkaStreamsJob {
    private KafkaStreamsJob() {}

    public static void main(String[] args) throws InterruptedException {
        KafkaJob job = KafkaJob.parse(args);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, job.id);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, job.bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, job.parallelism);
        p.put(StreamsConfig.STATE_DIR_CONFIG, job.stateDir.resolve("streams").toString());
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");

        StreamsBuilder builder = new StreamsBuilder();
        if (job.part == KafkaJob.Part.PASSTHROUGH) {
            builder.stream(job.input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                    .to(job.output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        } else {
            builder.stream(job.input, Consumed.with(Serdes.String(), Serdes.ByteArray()))
                    .groupByKey()
                    .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(KafkaJob.WINDOW_MS)))
                    .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("counts"))
                    .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                    .toStream()
                    .map((w, count) -> KeyValue.pair(w.key(), KafkaJob.countValue(w.window().start(), count)))
                    .to(job.output, Produced.with(Serdes.String(), Serdes.ByteArray()));
        }
        KafkaStreams streams = new KafkaStreams(builder.build(), p);
        CountDownLatch failed = new CountDownLatch(1);
        streams.setUncaughtExceptionHandler(e -> {
            e.printStackTrace();
            failed.countDown();
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        KafkaJob.started();
        streams.start();
        failed.await();
        System.exit(1);
    }
}
