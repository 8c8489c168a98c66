package io.millrace.cep;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.CrashLoopJob;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The job {@link CepCrashLoopIT} kills again and again: a pattern over a replayable generator's events, per key, into an
 * exactly-once file sink. Run as {@code CepCrashLoopJob <dir> <events> <rate> [<stateBackend> [<option>=<value>...]]};
 * it resumes from the checkpoints in {@code <dir>/checkpoints} by itself.
 */
public final class CepCrashLoopJob {
    static final int KEYS = 7;

    /** Event {@code i} of the generator: its key, its number and a kind 0..3 from a hash of it. */
    public record Tick(int key, long seq, int kind) {}

    static Tick tick(long i) {
        long h = i * 0x9E3779B97F4A7C15L;
        return new Tick((int) (i % KEYS), i, (int) ((h >>> 40) & 3));
    }

    /** A kind-0 event, then a kind-1, then one or more kind-2, with no kind-3 between the first two, within 2 s (200 events). */
    static Pattern<Tick> pattern() {
        return Pattern.<Tick>begin("a", AfterMatchSkipStrategy.skipToNext()).where(t -> t.kind() == 0)
                .notFollowedBy("stop").where(t -> t.kind() == 3)
                .followedBy("b").where(t -> t.kind() == 1)
                .followedBy("c").where(t -> t.kind() == 2).times(1, 2)
                .within(Duration.ofMillis(2_000));
    }

    static String describe(Map<String, List<Tick>> match) {
        StringBuilder b = new StringBuilder();
        match.forEach((v, ticks) -> b.append(b.length() == 0 ? "" : " ").append(v).append('=').append(ticks.stream().map(Tick::seq).toList()));
        return b.toString();
    }

    private CepCrashLoopJob() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long events = Long.parseLong(args[1]);
        double rate = Double.parseDouble(args[2]);
        PipelineConfig config = CrashLoopJob.onBackend(new PipelineConfig().parallelism(2), args, 3);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(100));
        Pipeline p = Pipeline.create(config);
        var ticks = p.fromSource(
                GeneratorSource.builder(CepCrashLoopJob::tick).count(events).ratePerSecond(rate).timestamps(i -> i * 10).build(),
                WatermarkStrategy.<Tick>monotonous(), "ticks").uid("ticks");
        CEP.pattern(ticks.keyBy(Tick::key), pattern())
                .select(CepCrashLoopJob::describe).uid("pattern")
                .sinkTo(TransactionalFileSink.of(dir.resolve("matches"), ExactlyOnceRecoveryIT.LINES)).uid("matches-sink");
        p.execute("cep-crash-loop");
        System.out.println("FINISHED");
    }
}
