package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Triggers;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in operator with keyed state, stopped with a savepoint on one state backend and restored on the other
 * (heap to RocksDB and RocksDB to heap) at another parallelism, commits through the two-phase-commit file sink the
 * same results as an uninterrupted run on the heap backend. The input is seeded and out of order within the
 * watermark bound, read by one source subtask so that each key's records arrive in one order in every run.
 */
class CrossBackendSavepointIT {
    static final int EVENTS = 3_000;
    static final int KEYS = 23;
    static final long BOUND_MS = 150;
    static final Reading[] INPUT = generate(new Random(0x5AFE_0031L));
    /** Records read by the running job's source task; reset before each run. */
    static final AtomicLong READ = new AtomicLong();

    public record Reading(long key, long value, long at) implements java.io.Serializable {}

    private static Reading[] generate(Random random) {
        Reading[] input = new Reading[EVENTS];
        for (int i = 0; i < EVENTS; i++) {
            input[i] = new Reading(random.nextInt(KEYS), random.nextInt(1000), 10L * i + random.nextInt((int) BOUND_MS));
        }
        return input;
    }

    /** One job under test: what it makes of the readings, and whether windows pre-aggregate locally. */
    enum Scenario {
        KEYED_PROCESS_EVERY_STATE_KIND(false, in -> in.keyBy(Reading::key).process(new EveryStateKind())),
        CO_PROCESS(false, in -> in.filter(r -> r.value() % 2 == 0).parallelism(1)
                .connect(in.filter(r -> r.value() % 2 == 1).parallelism(1))
                .keyBy(Reading::key, Reading::key).process(new EvenAndOddPerSecond())),
        TUMBLING(false, in -> describe(in.keyBy(Reading::key).window(Windows.tumbling(Duration.ofSeconds(1))).reduce(SUM))),
        TUMBLING_LOCAL_AGGREGATION(true, in -> in.keyBy(Reading::key).window(Windows.tumbling(Duration.ofSeconds(1)))
                .aggregate(new SumValues()).map(String::valueOf)),
        SLIDING(false, in -> describe(in.keyBy(Reading::key).window(Windows.sliding(Duration.ofSeconds(2), Duration.ofMillis(500)))
                .reduce(SUM))),
        SLIDING_LOCAL_AGGREGATION(true, in -> in.keyBy(Reading::key)
                .window(Windows.sliding(Duration.ofSeconds(2), Duration.ofMillis(500))).aggregate(new SumValues()).map(String::valueOf)),
        SLIDING_WITH_LATENESS(false, in -> describe(in.keyBy(Reading::key)
                .window(Windows.sliding(Duration.ofSeconds(1), Duration.ofMillis(250))).allowedLateness(Duration.ofMillis(400))
                .reduce(SUM))),
        TUMBLING_COUNT_TRIGGER(false, in -> describe(in.keyBy(Reading::key).window(Windows.tumbling(Duration.ofSeconds(2)))
                .trigger(Triggers.count(3)).reduce(SUM))),
        SESSION(false, in -> describe(in.keyBy(Reading::key).window(Windows.session(Duration.ofMillis(300))).reduce(SUM))),
        GLOBAL_PURGING_COUNT_TRIGGER(false, in -> describe(in.keyBy(Reading::key).window(Windows.global())
                .trigger(Triggers.purging(Triggers.count(4))).reduce(SUM))),
        COUNT_SLIDING(false, in -> describe(in.keyBy(Reading::key).countWindow(6, 2).reduce(SUM))),
        WINDOW_ALL(false, in -> describe(in.windowAll(Windows.tumbling(Duration.ofSeconds(1))).reduce(SUM)));

        final boolean localAggregation;
        final Function<DataStream<Reading>, DataStream<String>> job;

        Scenario(boolean localAggregation, Function<DataStream<Reading>, DataStream<String>> job) {
            this.localAggregation = localAggregation;
            this.job = job;
        }
    }

    /** Sums values; keeps the key and the latest timestamp, so each window's result names its key and contents. */
    static final io.millrace.api.functions.ReduceFunction<Reading> SUM =
            (a, b) -> new Reading(a.key(), a.value() + b.value(), Math.max(a.at(), b.at()));

    private static DataStream<String> describe(DataStream<Reading> sums) {
        return sums.map(r -> r.key() + " " + r.value() + " " + r.at());
    }

    /** The sum of a window's values, with a record accumulator. */
    static final class SumValues implements AggregateFunction<Reading, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Reading value, long[] acc) {
            acc[0] += value.value();
            acc[1]++;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0] * 100_000 + acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }

    /** Counts its inputs. */
    static final class Count implements AggregateFunction<Long, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Long value, Long acc) {
            return acc + 1;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    /**
     * Every state kind (value and map with TTL, list, reducing, aggregating), an event-time timer per second and a
     * processing-time timer far ahead per key. Emits per record what the states hold, and per fired second its sum.
     */
    static final class EveryStateKind extends KeyedProcessFunction<Long, Reading, String> {
        private transient ValueState<Reading> last;
        private transient ListState<Long> values;
        private transient MapState<Long, Long> bySecond;
        private transient ReducingState<Long> sum;
        private transient AggregatingState<Long, Long> count;

        @Override
        public void open(RuntimeContext context) {
            ValueStateDescriptor<Reading> lastD = new ValueStateDescriptor<>("last");
            lastD.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofHours(1)));
            last = context.state().getState(lastD);
            values = context.state().getListState(new ListStateDescriptor<>("values"));
            MapStateDescriptor<Long, Long> mapD = new MapStateDescriptor<>("by-second");
            mapD.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofHours(1)));
            bySecond = context.state().getMapState(mapD);
            sum = context.state().getReducingState(new ReducingStateDescriptor<>("sum", Long::sum));
            count = context.state().getAggregatingState(new AggregatingStateDescriptor<>("count", new Count()));
        }

        @Override
        public void processElement(Reading r, Context<Long> ctx, Collector<String> out) throws Exception {
            Reading previous = last.value();
            last.update(r);
            values.add(r.value());
            sum.add(r.value());
            count.add(r.value());
            long second = r.at() / 1000;
            Long inSecond = bySecond.get(second);
            bySecond.put(second, (inSecond == null ? 0 : inSecond) + r.value());
            ctx.timerService().registerEventTimeTimer(second * 1000 + 999);
            ctx.timerService().registerProcessingTimeTimer(Long.MAX_VALUE - 1);
            int listed = 0;
            for (Long ignored : values.get()) {
                listed++;
            }
            out.collect(r.key() + " " + r.value() + " previous=" + (previous == null ? "none" : previous.value())
                    + " listed=" + listed + " sum=" + sum.get() + " count=" + count.get());
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Long> ctx, Collector<String> out) throws Exception {
            if (ctx.timeDomain() == TimeDomain.EVENT_TIME) {
                long second = timestamp / 1000;
                out.collect(ctx.currentKey() + "@" + timestamp + " " + bySecond.get(second));
                bySecond.remove(second);
            }
        }
    }

    /** Per key and second, the sums of its even and of its odd values, emitted when the second's timer fires. */
    static final class EvenAndOddPerSecond extends CoProcessFunction<Reading, Reading, String> {
        private transient MapState<Long, Long> even;
        private transient MapState<Long, Long> odd;

        @Override
        public void open(RuntimeContext context) {
            even = context.state().getMapState(new MapStateDescriptor<>("even"));
            odd = context.state().getMapState(new MapStateDescriptor<>("odd"));
        }

        @Override
        public void processElement1(Reading r, Context ctx, Collector<String> out) throws Exception {
            add(even, r, ctx);
        }

        @Override
        public void processElement2(Reading r, Context ctx, Collector<String> out) throws Exception {
            add(odd, r, ctx);
        }

        private static void add(MapState<Long, Long> side, Reading r, Context ctx) {
            long second = r.at() / 1000;
            Long before = side.get(second);
            side.put(second, (before == null ? 0 : before) + r.value());
            ctx.timerService().registerEventTimeTimer(second * 1000 + 999);
        }

        @Override
        public void onTimer(long timestamp, Context ctx, Collector<String> out) throws Exception {
            long second = timestamp / 1000;
            out.collect(ctx.currentKey() + "@" + timestamp + " even=" + even.get(second) + " odd=" + odd.get(second));
            even.remove(second);
            odd.remove(second);
        }
    }

    enum Backend {
        HEAP,
        ROCKSDB
    }

    @TempDir
    Path dir;

    private Pipeline job(Scenario scenario, Backend backend, int parallelism, Path restoreFrom, String run, Path out) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism).localWindowAggregation(scenario.localAggregation);
        if (backend == Backend.ROCKSDB) {
            TestBackends.onRocksDb(config, dir.resolve("rocksdb-" + run));
        }
        config.checkpoints().directory(dir.resolve("checkpoints-" + run)).interval(Duration.ofMillis(200));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        DataStream<Reading> readings = p.fromSource(GeneratorSource.builder(i -> INPUT[(int) i]).count(EVENTS).ratePerSecond(1_200).build(),
                        WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofMillis(BOUND_MS))
                                .withTimestampAssigner((r, t) -> r.at()), "readings").uid("readings").parallelism(1)
                .map(r -> {
                    READ.incrementAndGet();
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

    @ParameterizedTest(name = "{0}: {1} to {2}")
    @MethodSource("cases")
    void savepointOnOneBackend_restoredOnTheOtherAtAnotherParallelism_commitsTheResultsOfAnUninterruptedRun(
            Scenario scenario, Backend from, Backend to) throws Exception {
        Path uninterrupted = dir.resolve("uninterrupted");
        READ.set(0);
        job(scenario, Backend.HEAP, 2, null, "reference", uninterrupted).execute("reference");
        List<String> expected = ExactlyOnceRecoveryIT.readLines(uninterrupted);

        Path out = dir.resolve("out");
        READ.set(0);
        JobHandle first = job(scenario, from, 2, null, "first", out).executeAsync("first");
        Await.until("a fifth of the input read", Duration.ofSeconds(60), () -> READ.get() >= EVENTS / 5);
        Path savepoint = Path.of(first.stopWithSavepoint().get(30, TimeUnit.SECONDS));
        assertThat(READ.get()).as("the first run stopped before the end of the input").isLessThan(EVENTS);
        job(scenario, to, 3, savepoint, "second", out).execute("second");

        assertThat(expected).as("the uninterrupted run's results").isNotEmpty();
        assertThat(ExactlyOnceRecoveryIT.readLines(out)).containsExactlyInAnyOrderElementsOf(expected);
    }
}
