package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.WindowedStream;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.window.TimeWindow;
import io.millrace.verify.WindowFact.Mode;
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
 * Event-time windows through the local runtime under random disorder, parallelism, batch sizes and channel
 * capacities, compared with a batch recomputation of the same input ({@link WindowShape}). Records within
 * the watermark bound are never late, so their results must be equal; records beyond it may be late
 * depending on timing, so then every record must be counted once: in the final firing of its windows or in
 * the late output (or the dropped counter).
 */
public class WindowEquivalenceIT {
    private static final long SEED = 0x5EED_0002L;
    private static final String[] KINDS = {"tumbling", "sliding", "session"};
    private static final OutputTag<Event> LATE = new OutputTag<>("late");

    /** The outcome of one run. */
    record Run(List<WindowFact> facts, List<Event> late, JobResult result, String description) {
        long lateDropped() {
            return result.metrics().sum("windows", OperatorMetrics::lateRecordsDropped);
        }

        long lateDiverted() {
            return result.metrics().sum("windows", OperatorMetrics::lateRecordsDiverted);
        }
    }

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    @Test
    void windowResults_underDisorderWithinTheBound_equalTheBatchRecomputation() {
        Mode[] modes = Mode.values();
        for (int round = 0; round < 15; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, KINDS[round % KINDS.length]);
            Mode mode = modes[(round / KINDS.length) % modes.length];
            DisorderedInput input = DisorderedInput.generate(random, 300 + random.nextInt(2_500), 1 + random.nextInt(40), 1 + random.nextInt(80), 0);
            long lateness = random.nextBoolean() ? 0 : random.nextInt(100);
            Run run = run(random, input, shape, mode, lateness, true);
            String where = where(seed, round, shape, mode, lateness, run);

            List<WindowFact> expected = new ArrayList<>();
            shape.windows(input.events).forEach((k, events) -> {
                TimeWindow w = (TimeWindow) k.get(1);
                expected.add(WindowFact.of((Integer) k.get(0), w.start(), w.end(), 0, events).as(mode));
            });
            assertThat(run.late()).as(where).isEmpty();
            assertThat(run.lateDiverted() + run.lateDropped()).as(where).isZero();
            assertThat(run.facts()).as(where).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void timeWindows_withLateDataAndAllowedLateness_countEveryRecordOnceAndMatchTheRecomputation() {
        for (int round = 0; round < 8; round++) {
            long seed = SEED + 100 + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, KINDS[round % 2]);
            DisorderedInput input = DisorderedInput.generate(random, 300 + random.nextInt(2_000), 1 + random.nextInt(20), 1 + random.nextInt(50), 0.03 + random.nextDouble() * 0.1);
            long lateness = switch (round % 3) {
                case 0 -> 0;
                case 1 -> 1 + random.nextInt(30);
                default -> 50 + random.nextInt(300);
            };
            Run run = run(random, input, shape, Mode.PROCESS, lateness, true);
            String where = where(seed, round, shape, Mode.PROCESS, lateness, run);

            Set<Integer> late = lateIds(run, input, shape, lateness, where);
            Map<List<Object>, List<WindowFact>> firings = firingsByWindow(run.facts(), where);
            Map<List<Object>, List<Event>> admitted = new HashMap<>();
            shape.windows(input.events.stream().filter(e -> !late.contains(e.id())).toList()).forEach(admitted::put);
            assertThat(admitted.keySet()).as(where + ": windows that fired").containsAll(firings.keySet());

            for (Map.Entry<List<Object>, List<Event>> w : admitted.entrySet()) {
                TimeWindow window = (TimeWindow) w.getKey().get(1);
                long cleanup = window.maxTimestamp() + lateness;
                Set<Integer> mayBeIn = new HashSet<>();
                Set<Integer> mustBeIn = new HashSet<>();
                for (Event e : w.getValue()) {
                    mayBeIn.add(e.id());
                    if (!input.couldMiss(e.id(), cleanup)) {
                        mustBeIn.add(e.id());
                    }
                }
                List<WindowFact> fired = firings.get(w.getKey());
                if (fired == null) {
                    assertThat(mustBeIn).as(where + ": records that had to reach window " + w.getKey()).isEmpty();
                    continue;
                }
                List<Integer> last = fired.get(fired.size() - 1).ids();
                assertThat(mayBeIn).as(where + ": final firing of " + w.getKey() + " holds only its records that were not late").containsAll(last);
                assertThat(last).as(where + ": final firing of " + w.getKey() + " holds every record that cannot have missed it").containsAll(mustBeIn);
            }
            // nothing lost: a record that was not late is in the final firing of its last window
            for (Event e : input.events) {
                if (!late.contains(e.id())) {
                    List<TimeWindow> ws = shape.windowsOf(e.ts());
                    List<WindowFact> fired = firings.get(List.of(e.key(), ws.get(ws.size() - 1)));
                    assertThat(fired).as(where + ": last window of " + e).isNotNull();
                    assertThat(fired.get(fired.size() - 1).ids()).as(where + ": last window of " + e).contains(e.id());
                }
            }
        }
    }

    @Test
    void sessions_withLateData_putEveryRecordInExactlyOneFinalSessionOrTheLateOutput() {
        for (int round = 0; round < 6; round++) {
            long seed = SEED + 200 + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, "session");
            DisorderedInput input = DisorderedInput.generate(random, 300 + random.nextInt(2_000), 1 + random.nextInt(30), 1 + random.nextInt(50), 0.03 + random.nextDouble() * 0.1);
            long lateness = round % 2 == 0 ? 0 : 1 + random.nextInt(200);
            Run run = run(random, input, shape, Mode.PROCESS, lateness, true);
            String where = where(seed, round, shape, Mode.PROCESS, lateness, run);

            Set<Integer> late = lateIds(run, input, shape, lateness, where);
            Map<List<Object>, List<WindowFact>> firings = firingsByWindow(run.facts(), where);
            // a session merged into a later, larger one is superseded by it and must be contained in it
            List<WindowFact> finals = new ArrayList<>();
            for (List<WindowFact> fired : firings.values()) {
                WindowFact last = fired.get(fired.size() - 1);
                WindowFact cover = null;
                for (List<WindowFact> other : firings.values()) {
                    WindowFact o = other.get(other.size() - 1);
                    if (o != last && o.key() == last.key() && o.start() <= last.start() && o.end() >= last.end()) {
                        cover = o;
                    }
                }
                if (cover == null) {
                    finals.add(last);
                } else {
                    assertThat(cover.ids()).as(where + ": " + last + " merged into " + cover).containsAll(last.ids());
                }
            }
            Map<Integer, Event> byId = new HashMap<>();
            input.events.forEach(e -> byId.put(e.id(), e));
            List<Integer> counted = new ArrayList<>(late);
            for (WindowFact f : finals) {
                counted.addAll(f.ids());
                long min = Long.MAX_VALUE;
                long max = Long.MIN_VALUE;
                for (int id : f.ids()) {
                    Event e = byId.get(id);
                    assertThat(e.key()).as(where + ": key of " + e + " in " + f).isEqualTo(f.key());
                    min = Math.min(min, e.ts());
                    max = Math.max(max, e.ts());
                }
                assertThat(List.of(f.start(), f.end())).as(where + ": bounds of " + f).isEqualTo(List.of(min, max + shape.gap()));
                assertThat(shape.sessions(f.ids().stream().map(byId::get).toList())).as(where + ": " + f + " is one session").hasSize(1);
            }
            assertThat(counted).as(where + ": every record once, in a final session or late").containsExactlyInAnyOrderElementsOf(byId.keySet());
        }
    }

    @Test
    void lateRecordsWithoutSideOutput_areDroppedAndCounted() {
        for (int round = 0; round < 4; round++) {
            long seed = SEED + 300 + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, "tumbling");
            DisorderedInput input = DisorderedInput.generate(random, 300 + random.nextInt(2_000), 1 + random.nextInt(20), 1 + random.nextInt(50), 0.05 + random.nextDouble() * 0.1);
            long lateness = round % 2 == 0 ? 0 : 1 + random.nextInt(100);
            Run run = run(random, input, shape, Mode.AGGREGATE_PROCESS, lateness, false);
            String where = where(seed, round, shape, Mode.AGGREGATE_PROCESS, lateness, run);

            Map<List<Object>, List<WindowFact>> firings = firingsByWindow(run.facts(), where);
            long counted = 0;
            for (List<WindowFact> fired : firings.values()) {
                counted += fired.get(fired.size() - 1).count();
            }
            assertThat(run.lateDiverted()).as(where).isZero();
            assertThat(counted + run.lateDropped()).as(where + ": counted in windows + dropped").isEqualTo(input.events.size());
        }
    }

    /** Checks the late output and returns its ids: each record at most once, and only if it can have been late. */
    private static Set<Integer> lateIds(Run run, DisorderedInput input, WindowShape shape, long lateness, String where) {
        Set<Integer> ids = new HashSet<>();
        for (Event e : run.late()) {
            assertThat(ids.add(e.id())).as(where + ": late twice " + e).isTrue();
            assertThat(e).as(where + ": late output holds input records").isEqualTo(input.events.get(e.id()));
            assertThat(input.withinBound(e.id())).as(where + ": a record within the watermark bound went late: " + e).isFalse();
            assertThat(input.couldMiss(e.id(), shape.lastMaxTimestamp(e.ts()) + lateness))
                    .as(where + ": " + e + " went late though the watermark cannot have passed its last window").isTrue();
        }
        assertThat(run.lateDiverted()).as(where + ": diverted counter").isEqualTo(run.late().size());
        return ids;
    }

    /** The firings of each (key, window), in firing order; checks that the indices run 0, 1, 2, ... and contents only grow. */
    private static Map<List<Object>, List<WindowFact>> firingsByWindow(List<WindowFact> facts, String where) {
        Map<List<Object>, List<WindowFact>> byWindow = new HashMap<>();
        for (WindowFact f : facts) {
            byWindow.computeIfAbsent(List.of(f.key(), new TimeWindow(f.start(), f.end())), k -> new ArrayList<>()).add(f);
        }
        for (List<WindowFact> fired : byWindow.values()) {
            fired.sort((a, b) -> Integer.compare(a.firing(), b.firing()));
            int first = fired.get(0).firing();
            for (int i = 0; i < fired.size(); i++) {
                assertThat(fired.get(i).firing()).as(where + ": firing indices of " + fired).isEqualTo(first + i);
                if (i > 0) {
                    assertThat(fired.get(i).count()).as(where + ": a re-firing never has fewer records: " + fired).isGreaterThanOrEqualTo(fired.get(i - 1).count());
                    if (fired.get(i).ids() != null) {
                        assertThat(fired.get(i).ids()).as(where + ": a re-firing keeps earlier records").containsAll(fired.get(i - 1).ids());
                    }
                }
            }
        }
        return byWindow;
    }

    private Run run(Random random, DisorderedInput input, WindowShape shape, Mode mode, long lateness, boolean lateOutput) {
        RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
        Pipeline p = runtime.pipeline();
        WindowedStream<Event, Integer, TimeWindow> windowed = input.source(p, runtime.parallelism("source"), runtime.maxPoll())
                .keyBy(Event::key)
                .window(shape.assigner());
        if (lateness > 0) {
            windowed = windowed.allowedLateness(Duration.ofMillis(lateness));
        }
        if (lateOutput) {
            windowed = windowed.sideOutputLateData(LATE);
        }
        DataStream<?> results = switch (mode) {
            case REDUCE -> windowed.reduce(Event::sum);
            case REDUCE_PROCESS -> windowed.reduce(Event::sum, new WindowFact.ReducedInWindow());
            case AGGREGATE -> windowed.aggregate(new WindowFact.Totals());
            case AGGREGATE_PROCESS -> windowed.aggregate(new WindowFact.Totals(), new WindowFact.TotalInWindow());
            case PROCESS -> windowed.process(new WindowFact.AllInWindow());
        };
        results.name("windows").parallelism(runtime.parallelism("windows"));
        @SuppressWarnings("unchecked")
        DataStream<Object> raw = (DataStream<Object>) results;
        DataStream<WindowFact> facts = mode.seesWindow()
                ? results.map(x -> (WindowFact) x)
                : raw.process(new WindowFact.FromTimestamp());
        facts.parallelism(runtime.parallelism("facts"));
        CollectSink<WindowFact> sink = new CollectSink<>();
        facts.sinkTo(sink).parallelism(runtime.parallelism("sink"));
        CollectSink<Event> lateSink = new CollectSink<>();
        if (lateOutput) {
            results.getSideOutput(LATE).sinkTo(lateSink).parallelism(runtime.parallelism("late-sink"));
        }
        JobResult result = p.execute("window equivalence");
        return new Run(sink.results(), lateSink.results(), result, runtime + " records=" + input.events.size() + " bound=" + input.bound);
    }

    private static String where(long seed, int round, WindowShape shape, Mode mode, long lateness, Run run) {
        return "seed " + seed + " (round " + round + "): " + shape + " " + mode + " lateness " + lateness + " [" + run.description() + "]";
    }
}
