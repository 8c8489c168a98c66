package io.millrace.verify;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.CrashLoopJob;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The job {@link JoinCrashLoopIT} kills again and again: vibration readings joined in event time with the pressure
 * readings of the same machine within 30 ms (an interval join), and with the machine's configuration as it was at the
 * reading's time (an event-time temporal join against a versioned table), both into exactly-once file sinks. All
 * inputs are functions of their index, so a restarted run replays them exactly; the three sources are paced to end
 * together. Run as {@code JoinCrashLoopJob <dir> <readings> <rate> [<stateBackend> [<option>=<value>...]]}.
 */
public final class JoinCrashLoopJob {
    static final int MACHINES = 8;
    /** A pressure reading per this many vibration readings, a configuration version per this many. */
    static final int PRESSURE_EVERY = 2;
    static final int VERSION_EVERY = 50;
    static final long BOUND_MILLIS = 50;
    static final RowType CONFIG = RowType.builder().field("machine", FieldType.BIGINT).field("version", FieldType.BIGINT).build();

    private JoinCrashLoopJob() {}

    /** Vibration reading {@code i}: every 10 ms, up to 39 ms out of order. */
    static long readingTime(long i) {
        return 10 * i - Math.floorMod(i * 7919, 40);
    }

    /** Pressure reading {@code j}: every 20 ms, in order. */
    static long pressureTime(long j) {
        return 20 * j + 5;
    }

    /** Configuration version {@code k} of machine {@code k % MACHINES}: every 500 ms, in order. */
    static long versionTime(long k) {
        return 500 * k + 3;
    }

    static long machine(long index) {
        return index % MACHINES;
    }

    /** The pairs' lines: "I reading pressure". */
    static final class Pairs extends ProcessJoinFunction<Long, Long, String> {
        @Override
        public void processElement(Long reading, Long pressure, Context ctx, Collector<String> out) {
            out.collect("I " + reading + " " + pressure);
        }
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long readings = Long.parseLong(args[1]);
        double rate = Double.parseDouble(args[2]);
        PipelineConfig config = CrashLoopJob.onBackend(new PipelineConfig().parallelism(2), args, 3);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(100));
        Pipeline p = Pipeline.create(config);
        DataStream<Long> vibration = p.fromSource(GeneratorSource.builder(i -> i).count(readings).ratePerSecond(rate)
                .timestamps(JoinCrashLoopJob::readingTime).build(), WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ofMillis(BOUND_MILLIS)),
                "vibration").uid("vibration").parallelism(1);
        DataStream<Long> pressure = p.fromSource(GeneratorSource.builder(j -> j).count(readings / PRESSURE_EVERY).ratePerSecond(rate / PRESSURE_EVERY)
                .timestamps(JoinCrashLoopJob::pressureTime).build(), WatermarkStrategy.<Long>monotonous(), "pressure").uid("pressure").parallelism(1);
        DataStream<Row> versions = p.fromSource(GeneratorSource.builder(k -> Row.ofKind(RowKind.UPDATE_AFTER, CONFIG, machine(k), k))
                .count(readings / VERSION_EVERY).ratePerSecond(rate / VERSION_EVERY).timestamps(JoinCrashLoopJob::versionTime).build(),
                WatermarkStrategy.<Row>monotonous(), "configurations").uid("configurations").parallelism(1);

        vibration.keyBy(JoinCrashLoopJob::machine).intervalJoin(pressure.keyBy(JoinCrashLoopJob::machine))
                .between(Duration.ofMillis(-30), Duration.ofMillis(30)).process(new Pairs()).uid("interval-join")
                .sinkTo(TransactionalFileSink.of(dir.resolve("interval"), ExactlyOnceRecoveryIT.LINES)).uid("interval-sink");
        TemporalJoin.of(vibration.keyBy(JoinCrashLoopJob::machine), versions.keyBy(r -> r.getLong("machine")))
                .leftOuter((Long reading, Row version) -> "T " + reading + " " + (version == null ? "none" : version.getLong("version")))
                .uid("temporal-join")
                .sinkTo(TransactionalFileSink.of(dir.resolve("temporal"), ExactlyOnceRecoveryIT.LINES)).uid("temporal-sink");
        p.execute("join crash loop");
        System.out.println("FINISHED");
    }
}
