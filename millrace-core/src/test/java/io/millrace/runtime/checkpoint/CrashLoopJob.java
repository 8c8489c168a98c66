package io.millrace.runtime.checkpoint;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The job the crash-loop test kills again and again: keyed running counts and event-time window counts
 * over a replayable generator, into exactly-once file sinks. Run as
 * {@code CrashLoopJob <dir> <events> <rate> <slowSinkMicros> [<stateBackend> [<option>=<value>...]]}; it
 * resumes from the checkpoints in {@code <dir>/checkpoints} by itself. The backend is {@code heap} unless named.
 */
public final class CrashLoopJob {
    private CrashLoopJob() {}

    /** Takes its time per record, so that the pipeline runs under backpressure. */
    static final class Slow implements io.millrace.api.functions.MapFunction<String, String> {
        private final long nanos;

        Slow(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public String map(String value) {
            LockSupport.parkNanos(nanos);
            return value;
        }
    }

    /** Sets the state backend named by {@code args[from]}, if there, and the option=value pairs after it. */
    public static PipelineConfig onBackend(PipelineConfig config, String[] args, int from) {
        if (args.length > from) {
            config.stateBackend(args[from]);
        }
        for (int i = from + 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            config.stateBackendOption(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        return config;
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long events = Long.parseLong(args[1]);
        double rate = Double.parseDouble(args[2]);
        long slowMicros = Long.parseLong(args[3]);
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(2), args, 4);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(100));
        Pipeline p = Pipeline.create(config);
        var numbers = p.fromSource(
                GeneratorSource.builder(i -> i).count(events).ratePerSecond(rate).timestamps(i -> i * 10).build(),
                WatermarkStrategy.<Long>monotonous(), "numbers").uid("numbers");
        var counts = numbers.keyBy(i -> i % ExactlyOnceRecoveryIT.KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).uid("running-count");
        if (slowMicros > 0) {
            counts = counts.map(new Slow(slowMicros * 1000)).uid("slow");
        }
        counts.sinkTo(TransactionalFileSink.of(dir.resolve("counts"), ExactlyOnceRecoveryIT.LINES)).uid("counts-sink");
        numbers.keyBy(i -> i % ExactlyOnceRecoveryIT.KEYS).window(Windows.tumbling(Duration.ofSeconds(10)))
                .aggregate(new ExactlyOnceRecoveryIT.Count())
                .map(String::valueOf).uid("window-counts")
                .sinkTo(TransactionalFileSink.of(dir.resolve("windows"), ExactlyOnceRecoveryIT.LINES)).uid("windows-sink");
        p.execute("crash-loop");
        System.out.println("FINISHED");
    }
}
