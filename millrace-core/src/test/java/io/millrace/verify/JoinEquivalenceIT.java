package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.window.TimeWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Window and interval joins through the local runtime under random disorder, parallelism (1–4 per operator),
 * batch sizes and channel capacities, compared with a nested-loop join of the same input. Rows within the
 * watermark bound are never late, so the results must be equal; with rows beyond it, every row that went to a late
 * output must have been able to be late, and the joined pairs must be those of the rows that were not.
 * {@link JoinRecoveryIT} adds failures, restores and rescaling.
 */
public class JoinEquivalenceIT {
    private static final long SEED = 0x301_0000L;
    private static final String[] KINDS = {"tumbling", "sliding", "session"};
    static final OutputTag<Event> LEFT_LATE = new OutputTag<>("left-late");
    static final OutputTag<Event> RIGHT_LATE = new OutputTag<>("right-late");

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    /** "leftId+rightId@timestamp" for each pair of an interval join, with the pair's timestamps checked. */
    static final class IntervalPairs extends ProcessJoinFunction<Event, Event, String> {
        @Override
        public void processElement(Event left, Event right, Context ctx, Collector<String> out) {
            if (ctx.leftTimestamp() != left.ts() || ctx.rightTimestamp() != right.ts() || ctx.timestamp() != Math.max(left.ts(), right.ts())) {
                throw new AssertionError("timestamps " + ctx.leftTimestamp() + "/" + ctx.rightTimestamp() + "/" + ctx.timestamp() + " of " + left + ", " + right);
            }
            out.collect(left.id() + "+" + right.id() + "@" + ctx.timestamp());
        }
    }

    /** Appends the record's timestamp: "value@timestamp". */
    static final class WithTimestamp extends ProcessFunction<String, String> {
        @Override
        public void processElement(String value, Context ctx, Collector<String> out) {
            out.collect(value + "@" + ctx.timestamp());
        }
    }

    /** The batch interval join: "leftId+rightId@max(ts)" for each left and right row of a key with {@code t + lower <= u <= t + upper}. */
    static List<String> intervalJoin(List<Event> lefts, List<Event> rights, long lower, long upper) {
        Map<Integer, List<Event>> rightsByKey = new HashMap<>();
        for (Event r : rights) {
            rightsByKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        List<String> pairs = new ArrayList<>();
        for (Event l : lefts) {
            for (Event r : rightsByKey.getOrDefault(l.key(), List.of())) {
                if (r.ts() >= l.ts() + lower && r.ts() <= l.ts() + upper) {
                    pairs.add(l.id() + "+" + r.id() + "@" + Math.max(l.ts(), r.ts()));
                }
            }
        }
        return pairs;
    }

    /**
     * The batch window join: "leftId+rightId@maxTimestamp" for each pair of a window of a key. Sessions are formed
     * over both sides together; right ids are shifted by {@code shift} to tell the sides apart.
     */
    static List<String> windowJoin(List<Event> lefts, List<Event> rights, WindowShape shape) {
        int shift = 1 << 30;
        List<Event> both = new ArrayList<>(lefts);
        for (Event r : rights) {
            both.add(new Event(r.id() + shift, r.key(), r.ts(), r.value()));
        }
        List<String> pairs = new ArrayList<>();
        shape.windows(both).forEach((k, events) -> {
            TimeWindow w = (TimeWindow) k.get(1);
            for (Event l : events) {
                for (Event r : events) {
                    if (l.id() < shift && r.id() >= shift) {
                        pairs.add(l.id() + "+" + (r.id() - shift) + "@" + w.maxTimestamp());
                    }
                }
            }
        });
        return pairs;
    }

    /** Equal as multisets; sorted first, since the pairs of a round run into the hundreds of thousands. */
    static void assertSamePairs(List<String> actual, List<String> expected, String where) {
        assertThat(actual.size()).as(where + ": number of pairs").isEqualTo(expected.size());
        List<String> a = new ArrayList<>(actual);
        List<String> e = new ArrayList<>(expected);
        a.sort(null);
        e.sort(null);
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(e.get(i))) {
                assertThat(a.get(i)).as(where + ": first difference of the sorted pairs, at " + i).isEqualTo(e.get(i));
            }
        }
    }

    /** A random pair of interval bounds: lower in [-80, 20], upper lower + [0, 100]. */
    static long[] randomBounds(Random random) {
        long lower = random.nextInt(101) - 80;
        return new long[] {lower, lower + random.nextInt(101)};
    }

    /** The outcome of one interval join run. */
    record IntervalRun(List<String> pairs, List<Event> leftLate, List<Event> rightLate, JobResult result, String description) {}

    private IntervalRun runIntervalJoin(Random random, DisorderedInput lefts, DisorderedInput rights, long lower, long upper) {
        RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
        Pipeline p = runtime.pipeline();
        DataStream<String> joined = lefts.source(p, runtime.parallelism("left"), runtime.maxPoll()).keyBy(Event::key)
                .intervalJoin(rights.source(p, runtime.parallelism("right"), runtime.maxPoll()).keyBy(Event::key))
                .between(Duration.ofMillis(lower), Duration.ofMillis(upper))
                .sideOutputLeftLateData(LEFT_LATE)
                .sideOutputRightLateData(RIGHT_LATE)
                .process(new IntervalPairs())
                .name("join").parallelism(runtime.parallelism("join"));
        CollectSink<String> sink = new CollectSink<>();
        joined.sinkTo(sink).parallelism(runtime.parallelism("sink"));
        CollectSink<Event> leftLate = new CollectSink<>();
        CollectSink<Event> rightLate = new CollectSink<>();
        joined.getSideOutput(LEFT_LATE).sinkTo(leftLate);
        joined.getSideOutput(RIGHT_LATE).sinkTo(rightLate);
        JobResult result = p.execute("interval join equivalence");
        return new IntervalRun(sink.results(), leftLate.results(), rightLate.results(), result,
                runtime + " left=" + lefts.events.size() + " right=" + rights.events.size() + " bound=" + lefts.bound + "/" + rights.bound
                        + " between=[" + lower + ", " + upper + "]");
    }

    @Test
    void intervalJoin_underDisorderWithinTheBound_equalsTheBatchJoin() {
        for (int round = 0; round < 12; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            int keys = 1 + random.nextInt(30);
            long bound = 1 + random.nextInt(80);
            DisorderedInput lefts = DisorderedInput.generate(random, 200 + random.nextInt(1_500), keys, bound, 0);
            DisorderedInput rights = DisorderedInput.generate(random, 200 + random.nextInt(1_500), keys, bound, 0);
            long[] bounds = randomBounds(random);
            IntervalRun run = runIntervalJoin(random, lefts, rights, bounds[0], bounds[1]);
            String where = "seed " + seed + " (round " + round + ") [" + run.description() + "]";

            assertThat(run.leftLate()).as(where).isEmpty();
            assertThat(run.rightLate()).as(where).isEmpty();
            assertThat(run.result().metrics().sum("join", OperatorMetrics::lateRecordsDropped)).as(where).isZero();
            List<String> expected = intervalJoin(lefts.events, rights.events, bounds[0], bounds[1]);
            assertSamePairs(run.pairs(), expected, where);
        }
    }

    @Test
    void intervalJoin_withLateRows_sendsOnlyRowsThatCanBeLateToTheSideOutputs_andJoinsAllOthers() {
        for (int round = 0; round < 8; round++) {
            long seed = SEED + 100 + round;
            Random random = new Random(seed);
            int keys = 1 + random.nextInt(20);
            DisorderedInput lefts = DisorderedInput.generate(random, 300 + random.nextInt(1_500), keys, 1 + random.nextInt(50), 0.03 + random.nextDouble() * 0.1);
            DisorderedInput rights = DisorderedInput.generate(random, 300 + random.nextInt(1_500), keys, 1 + random.nextInt(50), 0.03 + random.nextDouble() * 0.1);
            long[] bounds = randomBounds(random);
            IntervalRun run = runIntervalJoin(random, lefts, rights, bounds[0], bounds[1]);
            String where = "seed " + seed + " (round " + round + ") [" + run.description() + "]";

            Set<Integer> leftLate = lateIds(run.leftLate(), lefts, where + " left");
            Set<Integer> rightLate = lateIds(run.rightLate(), rights, where + " right");
            assertThat(run.result().metrics().sum("join", OperatorMetrics::lateRecordsDiverted)).as(where)
                    .isEqualTo(leftLate.size() + rightLate.size());
            List<String> expected = intervalJoin(
                    lefts.events.stream().filter(e -> !leftLate.contains(e.id())).toList(),
                    rights.events.stream().filter(e -> !rightLate.contains(e.id())).toList(), bounds[0], bounds[1]);
            assertSamePairs(run.pairs(), expected, where + ": the pairs of the rows that were not late");
        }
    }

    /** Checks a late output: each row at most once, an input row, and one that can have been late. Returns the ids. */
    private static Set<Integer> lateIds(List<Event> late, DisorderedInput input, String where) {
        Set<Integer> ids = new HashSet<>();
        for (Event e : late) {
            assertThat(ids.add(e.id())).as(where + ": late twice " + e).isTrue();
            assertThat(e).as(where + ": late output holds input rows").isEqualTo(input.events.get(e.id()));
            assertThat(input.withinBound(e.id())).as(where + ": a row within the watermark bound went late: " + e).isFalse();
        }
        return ids;
    }

    @Test
    void windowJoin_tumblingSlidingAndSession_underDisorderWithinTheBound_equalsTheBatchJoin() {
        for (int round = 0; round < 12; round++) {
            long seed = SEED + 200 + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, KINDS[round % KINDS.length]);
            int keys = 5 + random.nextInt(30);
            long bound = 1 + random.nextInt(80);
            DisorderedInput lefts = DisorderedInput.generate(random, 200 + random.nextInt(800), keys, bound, 0);
            DisorderedInput rights = DisorderedInput.generate(random, 200 + random.nextInt(800), keys, bound, 0);

            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            Pipeline p = runtime.pipeline();
            DataStream<String> joined = lefts.source(p, runtime.parallelism("left"), runtime.maxPoll())
                    .join(rights.source(p, runtime.parallelism("right"), runtime.maxPoll()))
                    .where(Event::key).equalTo(Event::key)
                    .window(shape.assigner())
                    .apply((l, r) -> l.id() + "+" + r.id());
            joined.parallelism(runtime.parallelism("join"));
            CollectSink<String> sink = new CollectSink<>();
            joined.process(new WithTimestamp()).parallelism(runtime.parallelism("stamp")).sinkTo(sink);
            JobResult result = p.execute("window join equivalence");
            String where = "seed " + seed + " (round " + round + "): " + shape + " [" + runtime + " left=" + lefts.events.size()
                    + " right=" + rights.events.size() + " bound=" + bound + "]";

            assertThat(result.metrics().sum("windowJoin", OperatorMetrics::lateRecordsDropped)).as(where).isZero();
            assertSamePairs(sink.results(), windowJoin(lefts.events, rights.events, shape), where);
        }
    }
}
