package io.millrace.verify;

import io.millrace.api.BroadcastStream;
import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReadOnlyBroadcastState;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broadcast-state job of the recovery, rescale and cross-backend tests: limits per machine type, broadcast to a
 * keyed operator whose readings, keyed by machine, raise alarms over the limit valid at their time. Rules and
 * readings come from one seeded input, split by a subtask each; a rule applies from its event time on, and the keyed
 * side waits for the watermark, so the alarms do not depend on how the two inputs interleave and can be compared
 * with {@link #model}.
 */
public final class BroadcastJob {
    /** Machine types; machine {@code m} is of type {@code m % TYPES}. */
    public static final int TYPES = 4;
    /** Readings trail the rules by less than this (ms), the watermark's bound: no rule and no reading is late. */
    public static final long BOUND_MS = 30;
    /** Per machine type, its limits by the time they apply from. */
    public static final MapStateDescriptor<Integer, TreeMap<Long, Integer>> LIMITS = new MapStateDescriptor<>("limits");
    public static final OutputTag<Event> REJECTED = new OutputTag<>("rejected-rules");
    /** Once per subtask, at its first reading: "subtask i/p sees n limits". */
    public static final OutputTag<String> PROBE = new OutputTag<>("probe");
    /** Readings that passed the source, over all runs of a test. */
    public static final AtomicLong READ = new AtomicLong();

    private BroadcastJob() {}

    /**
     * One element of the input: a reading ({@code value} of machine {@code machine}) or, when {@code rule}, the limit
     * {@code value} for the machines of type {@code machine} from {@code at} on; a rule of type -1 is bad.
     */
    public record Event(long seq, long at, int machine, int value, boolean rule) {}

    /**
     * {@code n} events over {@code machines} machines, rules among them with probability {@code ruleShare} while
     * {@code seq < rulesUntil}, at least one per type at the start, and one bad rule.
     */
    public static List<Event> generate(Random random, int n, int machines, double ruleShare, int rulesUntil) {
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long at = 10L * i;
            boolean rule = i < TYPES || (i < rulesUntil && random.nextDouble() < ruleShare);
            if (i == TYPES) {
                events.add(new Event(i, at, -1, 50, true));
            } else if (rule) {
                events.add(new Event(i, at, i < TYPES ? i : random.nextInt(TYPES), 40 + random.nextInt(50), true));
            } else {
                events.add(new Event(i, at + random.nextInt((int) BOUND_MS), random.nextInt(machines), random.nextInt(100), false));
            }
        }
        return events;
    }

    /** The alarms of {@code events} computed in one batch: each reading against the latest rule of its type at its time. */
    public static List<String> model(List<Event> events) {
        List<String> alarms = new ArrayList<>();
        for (Event r : events) {
            if (r.rule()) {
                continue;
            }
            Event valid = null;
            for (Event rule : events) {
                if (rule.rule() && rule.machine() == r.machine() % TYPES && rule.at() <= r.at() && (valid == null || rule.at() > valid.at())) {
                    valid = rule;
                }
            }
            if (valid != null && r.value() > valid.value()) {
                alarms.add(alarm(r, valid.value()));
            }
        }
        return alarms;
    }

    static String alarm(Event r, int limit) {
        return "m" + r.machine() + " #" + r.seq() + " " + r.value() + " over " + limit;
    }

    /** The events as a source of one subtask at {@code perSecond}, counted in {@link #READ}. */
    public static DataStream<Event> source(Pipeline p, List<Event> events, double perSecond) {
        GeneratorSource<Event> source = GeneratorSource.builder(i -> events.get((int) i)).count(events.size())
                .timestamps(i -> events.get((int) i).at()).ratePerSecond(perSecond).build();
        return p.fromSource(source, WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(BOUND_MS)), "events")
                .uid("events").parallelism(1)
                .map(e -> {
                    READ.incrementAndGet();
                    return e;
                }).uid("read").parallelism(1);
    }

    /** The alarms of {@code events}, with {@code beforeKeying} applied to the readings (to inject failures). */
    public static DataStream<String> alarms(DataStream<Event> events, MapFunction<Event, Event> beforeKeying) {
        BroadcastStream<Event> rules = events.filter(Event::rule).uid("rules").parallelism(1).broadcast(LIMITS);
        return events.filter(e -> !e.rule()).uid("readings").parallelism(1)
                .map(beforeKeying).uid("before-keying")
                .keyBy(Event::machine)
                .connect(rules)
                .process(new Alarms()).uid("alarms");
    }

    /** Keeps the limits per type in broadcast state; buffers readings until the watermark passes them. */
    static final class Alarms extends KeyedBroadcastProcessFunction<Integer, Event, Event, String> {
        private transient ListState<Event> waiting;
        private transient RuntimeContext runtime;
        private transient boolean probed;

        @Override
        public void open(RuntimeContext context) {
            runtime = context;
            waiting = context.state().getListState(new ListStateDescriptor<>("waiting"));
        }

        @Override
        public void processBroadcastElement(Event rule, Context<Integer> ctx, Collector<String> out) {
            if (rule.machine() < 0) {
                if (runtime.subtaskIndex() == 0) {
                    ctx.output(REJECTED, rule);
                }
                return;
            }
            BroadcastState<Integer, TreeMap<Long, Integer>> limits = ctx.getBroadcastState(LIMITS);
            TreeMap<Long, Integer> byTime = new TreeMap<>();
            if (limits.contains(rule.machine())) {
                byTime.putAll(limits.get(rule.machine()));
            }
            byTime.put(rule.at(), rule.value());
            limits.put(rule.machine(), byTime);
        }

        @Override
        public void processElement(Event r, ReadOnlyContext<Integer> ctx, Collector<String> out) {
            if (!probed) {
                probed = true;
                ctx.output(PROBE, "subtask " + runtime.subtaskIndex() + "/" + runtime.parallelism() + " sees " + count(ctx.getBroadcastState(LIMITS))
                        + " limits");
            }
            waiting.add(r);
            ctx.timerService().registerEventTimeTimer(r.at());
        }

        @Override
        public void onTimer(long time, OnTimerContext<Integer> ctx, Collector<String> out) {
            TreeMap<Long, Integer> byTime = ctx.getBroadcastState(LIMITS).get(ctx.currentKey() % TYPES);
            List<Event> later = new ArrayList<>();
            for (Event r : waiting.get()) {
                Map.Entry<Long, Integer> limit = byTime == null ? null : byTime.floorEntry(r.at());
                if (r.at() > time) {
                    later.add(r);
                } else if (limit != null && r.value() > limit.getValue()) {
                    out.collect(alarm(r, limit.getValue()));
                }
            }
            waiting.update(later);
        }

        private static int count(ReadOnlyBroadcastState<Integer, TreeMap<Long, Integer>> limits) {
            int n = 0;
            for (Map.Entry<Integer, TreeMap<Long, Integer>> e : limits.immutableEntries()) {
                n += e.getValue().size();
            }
            return n;
        }
    }
}
