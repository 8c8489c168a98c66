package io.millrace.bench.millrace;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.local.LocalExecutor;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long checkpoints take while the pipeline is backpressured (issue 3: "checkpoints still complete while the
 * pipeline is backpressured"). An unlimited generator feeds a stage that takes {@code micros} per record, then keyed
 * counts; after {@code fillMillis}, when the queues have filled, {@code checkpoints} checkpoints are requested one after the other. Run with
 * channels sized to their consumer's reading (in-flight target 100 ms, the default) and with fixed channels of 32
 * and of 4 batches (target 0), so the figures show what the sizing buys. Prints one {@code CHECKPOINT_COST
 * part=backpressure} line per checkpoint and one summary line per setting.
 */
final class BackpressuredCheckpoints {
    private BackpressuredCheckpoints() {}

    /** A stage that takes {@code nanos} per record: a slow sink or external lookup. */
    static long slow(long value, long nanos) {
        LockSupport.parkNanos(nanos);
        return value;
    }

    static void measure(long micros, int checkpoints, long fillMillis, PrintStream out) throws Exception {
        record Setting(String name, int capacity, Duration target) {}
        for (Setting s : new Setting[] {
                new Setting("sized", 32, Duration.ofMillis(100)),
                new Setting("fixed-32", 32, Duration.ZERO),
                new Setting("fixed-4", 4, Duration.ZERO)}) {
            Path dir = Files.createTempDirectory("millrace-ckbp");
            try {
                PipelineConfig config = new PipelineConfig().parallelism(CheckpointCost.PARALLELISM)
                        .channelCapacity(s.capacity()).channelInFlightTarget(s.target());
                config.checkpoints().directory(dir).periodic(false);
                Pipeline p = Pipeline.create(config);
                long nanos = micros * 1000;
                p.fromSource(GeneratorSource.builder(i -> i).unbounded().build(), WatermarkStrategy.<Long>noWatermarks(), "numbers")
                        .rebalance().map(v -> slow(v, nanos)).name("slow")
                        .keyBy(v -> v % 1024).reduce(Long::sum).name("sums")
                        .sinkTo(new CheckpointCost.Discard<>()).name("discard");
                JobHandle job = new LocalExecutor().submit(p.plan(), "ckcost-backpressure");
                job.await(Duration.ofMillis(fillMillis)); // the queues fill; the job runs until cancelled
                long total = 0;
                long worst = 0;
                for (int c = 0; c < checkpoints; c++) {
                    long id = job.triggerCheckpoint().get(10, TimeUnit.MINUTES);
                    CheckpointMetrics m = CheckpointCost.checkpoint(job.metrics(), id);
                    total += m.durationMillis();
                    worst = Math.max(worst, m.durationMillis());
                    out.printf(Locale.ROOT, "CHECKPOINT_COST part=backpressure setting=%s checkpoint=%d duration_ms=%d max_alignment_ms=%d load=%s%n",
                            s.name(), id, m.durationMillis(), m.maxAlignmentMillis(), CheckpointCost.load());
                }
                long records = job.metrics().sum("slow", om -> om.recordsIn());
                job.cancel();
                job.await();
                out.printf(Locale.ROOT, "CHECKPOINT_COST part=backpressure setting=%s capacity=%d in_flight_target_ms=%d micros_per_record=%d "
                                + "mean_duration_ms=%d max_duration_ms=%d slow_stage_records=%d%n",
                        s.name(), s.capacity(), s.target().toMillis(), micros, total / Math.max(1, checkpoints), worst, records);
            } finally {
                CheckpointCost.delete(dir);
            }
        }
    }
}
