package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.table.ChangelogJoin;
import io.millrace.api.table.ChangelogJoins;
import io.millrace.api.table.KeyedTable;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.rocksdb.CrossBackendSavepointIT.Reading;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The joins (interval, window, temporal, changelog), stopped with a savepoint on one state backend and restored on
 * the other at another parallelism, commit the results of an uninterrupted run on the heap backend, as
 * {@link CrossBackendSavepointIT} checks for the other keyed operators, on its input. Each side of a join is a part
 * of the readings, split by one subtask so that each key's records arrive in one order in every run. The changelog
 * join's output depends on how its two inputs interleave, so for it the sum of the committed changelog (the joined
 * table it describes) is compared.
 */
class CrossBackendJoinSavepointIT {
    static final RowType CONFIG = RowType.builder().field("machine", FieldType.BIGINT).field("rpm", FieldType.BIGINT)
            .field("at", FieldType.BIGINT).build();

    /** "left value+right value@timestamp" for each pair. */
    static final class Pairs extends ProcessJoinFunction<Reading, Reading, String> {
        @Override
        public void processElement(Reading left, Reading right, Context ctx, Collector<String> out) {
            out.collect(left.key() + ": " + left.value() + "+" + right.value() + "@" + ctx.timestamp());
        }
    }

    static DataStream<Reading> part(DataStream<Reading> in, int modulus, int remainder) {
        return in.filter(r -> r.value() % modulus == remainder).parallelism(1);
    }

    static Row version(Reading r) {
        return Row.ofKind(r.value() % 5 == 0 ? RowKind.DELETE : RowKind.UPDATE_AFTER, CONFIG, r.key(), r.value(), r.at());
    }

    static Row sideRow(Reading r) {
        return Row.of(ChangelogJoins.SIDE, "id" + r.key(), r.value() % 6, r.value());
    }

    enum Scenario {
        INTERVAL(in -> part(in, 2, 0).keyBy(Reading::key).intervalJoin(part(in, 2, 1).keyBy(Reading::key))
                .between(Duration.ofMillis(-200), Duration.ofMillis(100)).process(new Pairs())),
        WINDOW(in -> part(in, 2, 0).join(part(in, 2, 1)).where(Reading::key).equalTo(Reading::key)
                .window(Windows.tumbling(Duration.ofSeconds(1))).apply((l, r) -> l.key() + ": " + l.value() + "+" + r.value() + " " + l.at())),
        TEMPORAL(in -> TemporalJoin.of(part(in, 3, 0).keyBy(Reading::key),
                        part(in, 3, 1).map(CrossBackendJoinSavepointIT::version).parallelism(1).keyBy(r -> r.getLong("machine")))
                .leftOuter((r, v) -> r.key() + "@" + r.at() + " " + r.value() + " sees " + (v == null ? "none" : v.getLong("rpm") + "@" + v.getLong("at")))),
        CHANGELOG(in -> ChangelogJoin.of(
                        KeyedTable.fromUpserts(part(in, 2, 0).map(CrossBackendJoinSavepointIT::sideRow).parallelism(1), r -> r.getString("id"))
                                .toChangelog().uid("left-table").keyBy(r -> r.getLong("k")),
                        KeyedTable.fromUpserts(part(in, 2, 1).map(CrossBackendJoinSavepointIT::sideRow).parallelism(1), r -> r.getString("id"))
                                .toChangelog().uid("right-table").keyBy(r -> r.getLong("k")))
                .fullOuter(ChangelogJoins.JOIN).map(r -> r.kind().shortString() + ChangelogJoins.describe(r)));

        final Function<DataStream<Reading>, DataStream<String>> job;

        Scenario(Function<DataStream<Reading>, DataStream<String>> job) {
            this.job = job;
        }
    }

    enum Backend {
        HEAP,
        ROCKSDB
    }

    @TempDir
    Path dir;

    private Pipeline job(Scenario scenario, Backend backend, int parallelism, Path restoreFrom, String run, Path out) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism);
        if (backend == Backend.ROCKSDB) {
            TestBackends.onRocksDb(config, dir.resolve("rocksdb-" + run));
        }
        config.checkpoints().directory(dir.resolve("checkpoints-" + run)).interval(Duration.ofMillis(200));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        Reading[] input = CrossBackendSavepointIT.INPUT;
        DataStream<Reading> readings = p.fromSource(GeneratorSource.builder(i -> input[(int) i]).count(CrossBackendSavepointIT.EVENTS)
                                .ratePerSecond(2_000).build(),
                        WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofMillis(CrossBackendSavepointIT.BOUND_MS))
                                .withTimestampAssigner((r, t) -> r.at()), "readings").uid("readings").parallelism(1)
                .map(r -> {
                    CrossBackendSavepointIT.READ.incrementAndGet();
                    return r;
                }).uid("read").parallelism(1);
        scenario.job.apply(readings).uid("under-test")
                .sinkTo(TransactionalFileSink.of(out, ExactlyOnceRecoveryIT.LINES)).uid("sink");
        return p;
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Scenario s : Scenario.values()) {
            cases.add(Arguments.of(s, Backend.HEAP, Backend.ROCKSDB));
            cases.add(Arguments.of(s, Backend.ROCKSDB, Backend.HEAP));
        }
        return cases.stream();
    }

    /** The changelog join's lines summed per joined row. */
    private static Object changelogSum(List<String> lines) {
        List<String> described = new ArrayList<>();
        List<Boolean> additions = new ArrayList<>();
        for (String line : lines) {
            described.add(line.substring(2));
            additions.add(line.charAt(0) == '+');
        }
        return ChangelogJoins.sum(described, additions);
    }

    @ParameterizedTest(name = "{0}: {1} to {2}")
    @MethodSource("cases")
    void savepointOnOneBackend_restoredOnTheOtherAtAnotherParallelism_commitsTheResultsOfAnUninterruptedRun(
            Scenario scenario, Backend from, Backend to) throws Exception {
        Path uninterrupted = dir.resolve("uninterrupted");
        CrossBackendSavepointIT.READ.set(0);
        job(scenario, Backend.HEAP, 2, null, "reference", uninterrupted).execute("reference");
        List<String> expected = ExactlyOnceRecoveryIT.readLines(uninterrupted);

        Path out = dir.resolve("out");
        CrossBackendSavepointIT.READ.set(0);
        JobHandle first = job(scenario, from, 2, null, "first", out).executeAsync("first");
        Await.until("a third of the input read", Duration.ofSeconds(60), () -> CrossBackendSavepointIT.READ.get() >= CrossBackendSavepointIT.EVENTS / 3);
        Path savepoint = Path.of(first.stopWithSavepoint().get(30, TimeUnit.SECONDS));
        assertThat(CrossBackendSavepointIT.READ.get()).as("the first run stopped before the end of the input").isLessThan(CrossBackendSavepointIT.EVENTS);
        List<String> beforeRestore = ExactlyOnceRecoveryIT.readLines(out);
        job(scenario, to, 3, savepoint, "second", out).execute("second");

        assertThat(expected).as("the uninterrupted run's results").isNotEmpty();
        assertThat(beforeRestore).as("results committed by the first run").isNotEmpty();
        List<String> all = ExactlyOnceRecoveryIT.readLines(out);
        if (scenario == Scenario.CHANGELOG) {
            assertThat(changelogSum(all)).isEqualTo(changelogSum(expected));
            assertThat(all).as("the changelog join retracts").anyMatch(s -> s.startsWith("-D"));
        } else {
            assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
