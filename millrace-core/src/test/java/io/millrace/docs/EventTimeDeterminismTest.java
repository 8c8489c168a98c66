package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.FeedSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What docs/event-time.md ("What is deterministic") promises: with no record later than the watermark bound, window
 * results do not depend on the run or on how the two source subtasks' channels interleave; with records later than
 * that, whether each of those is late may differ between runs, but every record is either in a window's result or
 * in the late side output. One boundary of session windows depends on arrival order even on time: a record exactly at
 * a session's end (its last record + gap) joins it only if it comes before the watermark that fires the session.
 */
class EventTimeDeterminismTest {

    record Reading(String machine, long time) {}

    private static final long T0 = 1_704_067_200_000L;
    /** Records per source split; the source has two splits (parallelism 2), each walking through the same event time. */
    private static final long PER_SPLIT = 100_000;
    private static final long BOUND_MS = 5_000;
    private static final long GAP_MS = 10_000;
    private static final long WINDOW_MS = 10_000;
    /**
     * How far behind the others an over-late record is: 30 days, far more than the bound and any window, and more
     * than the input spans, so that every over-late reading is more than a day before {@link #T0}.
     */
    private static final long OVER_LATE_MS = 30L * 86_400_000;

    /** A record's position in its split (the generator gives each of the two splits a contiguous range). */
    private static long position(long index) {
        return index < PER_SPLIT ? index : index - PER_SPLIT;
    }

    /** A jitter of 0 to 3,999 ms from the index, so that each split is out of order within the 5 s bound. */
    private static long jitter(long index) {
        long h = index * 0x9E3779B97F4A7C15L;
        return Math.floorMod(h ^ (h >>> 29), 4_000L);
    }

    /**
     * One reading per second of event time in each split, six machines, a pause of 60 s every 200 s (so that
     * sessions end), each reading up to 4 s behind the highest timestamp before it in its split: never behind the
     * watermark of a 5 s bound.
     */
    static Reading onTime(long index) {
        long p = position(index);
        return new Reading("m" + index % 6, T0 + 1_000 * p + 60_000 * (p / 200) - jitter(index));
    }

    /** As {@link #onTime}, but in the last tenth of each split every 50th reading is 30 days old. */
    static Reading withOverLate(long index) {
        Reading r = onTime(index);
        return overLate(index) ? new Reading(r.machine(), r.time() - OVER_LATE_MS) : r;
    }

    /** Whether a timestamp is an over-late reading's: on-time readings are at most 4 s before {@link #T0}. */
    static boolean overLateTime(long time) {
        return time < T0 - 86_400_000L;
    }

    static boolean overLate(long index) {
        long p = position(index);
        return p >= PER_SPLIT * 9 / 10 && p % 50 == 0;
    }

    private static WatermarkStrategy<Reading> strategy() {
        return WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofMillis(BOUND_MS))
                .withTimestampAssigner((r, ts) -> r.time());
    }

    /** "machine start end count" per window. */
    static final class Describe extends ProcessWindowFunction<Long, String, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Long> counts, Collector<String> out) {
            for (Long n : counts) {
                out.collect(machine + " " + ctx.window().start() + " " + ctx.window().end() + " " + n);
            }
        }
    }

    private record Results(List<String> sessions, List<String> tumbling, List<Reading> lateSessions, List<Reading> lateTumbling) {}

    private static Results run(boolean withOverLate) {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> sessions = new CollectSink<>();
        CollectSink<String> tumbling = new CollectSink<>();
        CollectSink<Reading> lateSessions = new CollectSink<>();
        CollectSink<Reading> lateTumbling = new CollectSink<>();
        OutputTag<Reading> lateSessionTag = new OutputTag<>("late-for-sessions");
        OutputTag<Reading> lateTumblingTag = new OutputTag<>("late-for-minutes");
        GeneratorSource<Reading> source = GeneratorSource
                .builder(withOverLate ? EventTimeDeterminismTest::withOverLate : EventTimeDeterminismTest::onTime)
                .count(2 * PER_SPLIT)
                .build();
        DataStream<Reading> readings = pipeline.fromSource(source, strategy(), "readings");
        DataStream<String> s = readings.keyBy(Reading::machine)
                .window(Windows.session(Duration.ofMillis(GAP_MS)))
                .sideOutputLateData(lateSessionTag)
                .aggregate(new WindowsExamplesTest.CountReadings<>(), new Describe());
        s.sinkTo(sessions);
        s.getSideOutput(lateSessionTag).sinkTo(lateSessions);
        DataStream<String> t = readings.keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMillis(WINDOW_MS)))
                .sideOutputLateData(lateTumblingTag)
                .aggregate(new WindowsExamplesTest.CountReadings<>(), new Describe());
        t.sinkTo(tumbling);
        t.getSideOutput(lateTumblingTag).sinkTo(lateTumbling);
        pipeline.execute("determinism");
        return new Results(sorted(sessions.results()), sorted(tumbling.results()), lateSessions.results(), lateTumbling.results());
    }

    private static List<String> sorted(List<String> lines) {
        List<String> copy = new ArrayList<>(lines);
        copy.sort(null);
        return copy;
    }

    /** The batch recomputation: per machine, sessions (a reading within the gap of the last one joins its session). */
    static List<String> batchSessions(List<Reading> all) {
        Map<String, List<Long>> byMachine = new TreeMap<>();
        for (Reading r : all) {
            byMachine.computeIfAbsent(r.machine(), k -> new ArrayList<>()).add(r.time());
        }
        List<String> out = new ArrayList<>();
        byMachine.forEach((machine, times) -> {
            times.sort(null);
            long start = times.get(0);
            long last = start;
            long n = 0;
            for (long t : times) {
                if (t > last + GAP_MS) {
                    out.add(machine + " " + start + " " + (last + GAP_MS) + " " + n);
                    start = t;
                    n = 0;
                }
                last = t;
                n++;
            }
            out.add(machine + " " + start + " " + (last + GAP_MS) + " " + n);
        });
        return sorted(out);
    }

    /** The batch recomputation of the tumbling windows' counts. */
    static List<String> batchTumbling(List<Reading> all) {
        Map<String, Long> counts = new HashMap<>();
        for (Reading r : all) {
            long start = Math.floorDiv(r.time(), WINDOW_MS) * WINDOW_MS;
            counts.merge(r.machine() + " " + start + " " + (start + WINDOW_MS), 1L, Long::sum);
        }
        List<String> out = new ArrayList<>();
        counts.forEach((window, n) -> out.add(window + " " + n));
        return sorted(out);
    }

    private static long total(List<String> windows) {
        return windows.stream().mapToLong(w -> Long.parseLong(w.substring(w.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void noRecordBeyondTheBound_twoRunsAtParallelism2_giveEqualResults_equalToTheBatchRecomputation() {
        List<Reading> input = new ArrayList<>();
        for (long i = 0; i < 2 * PER_SPLIT; i++) {
            input.add(onTime(i));
        }
        List<String> expectedSessions = batchSessions(input);
        List<String> expectedTumbling = batchTumbling(input);

        Results first = run(false);
        Results second = run(false);

        assertThat(expectedSessions).as("the input has sessions to merge and split").hasSizeGreaterThan(100);
        assertThat(first.lateSessions()).as("late for sessions, first run").isEmpty();
        assertThat(first.lateTumbling()).as("late for tumbling windows, first run").isEmpty();
        assertThat(first.sessions()).as("sessions, first run").isEqualTo(expectedSessions);
        assertThat(first.tumbling()).as("tumbling windows, first run").isEqualTo(expectedTumbling);
        assertThat(second.lateSessions()).as("late for sessions, second run").isEmpty();
        assertThat(second.lateTumbling()).as("late for tumbling windows, second run").isEmpty();
        assertThat(second.sessions()).as("sessions, second run").isEqualTo(first.sessions());
        assertThat(second.tumbling()).as("tumbling windows, second run").isEqualTo(first.tumbling());
    }

    @Test
    void recordsBeyondTheBound_eachRecordIsInAWindowOrInTheLateOutput_andOnlyThoseAreEverLate() {
        long overLate = 0;
        for (long i = 0; i < 2 * PER_SPLIT; i++) {
            if (overLate(i)) {
                overLate++;
            }
        }
        List<Reading> onTimeInput = new ArrayList<>();
        for (long i = 0; i < 2 * PER_SPLIT; i++) {
            if (!overLate(i)) {
                onTimeInput.add(onTime(i));
            }
        }
        Map<String, Long> onTimePerWindow = new HashMap<>();
        for (String w : batchTumbling(onTimeInput)) {
            int cut = w.lastIndexOf(' ');
            onTimePerWindow.put(w.substring(0, cut), Long.parseLong(w.substring(cut + 1)));
        }

        long lateOverRuns = 0;
        for (int run = 1; run <= 2; run++) {
            Results r = run(true);
            assertThat(total(r.sessions()) + r.lateSessions().size()).as("run %d: readings in sessions + late ones", run)
                    .isEqualTo(2 * PER_SPLIT);
            assertThat(total(r.tumbling()) + r.lateTumbling().size()).as("run %d: readings in tumbling windows + late ones", run)
                    .isEqualTo(2 * PER_SPLIT);
            assertThat(r.lateSessions()).as("run %d: only readings beyond the bound are late for sessions", run)
                    .allMatch(x -> overLateTime(x.time()));
            assertThat(r.lateTumbling()).as("run %d: only readings beyond the bound are late for tumbling windows", run)
                    .allMatch(x -> overLateTime(x.time()));
            // every on-time reading is counted in its own window, whatever happened to the over-late ones
            for (String w : r.tumbling()) {
                int cut = w.lastIndexOf(' ');
                String window = w.substring(0, cut);
                if (!overLateTime(Long.parseLong(window.split(" ")[1]))) {
                    assertThat(Long.parseLong(w.substring(cut + 1))).as("run %d: window %s", run, window)
                            .isEqualTo(onTimePerWindow.get(window));
                }
            }
            assertThat(r.tumbling().stream().filter(w -> !overLateTime(Long.parseLong(w.split(" ")[1]))).count())
                    .as("run %d: windows of on-time readings", run).isEqualTo(onTimePerWindow.size());
            lateOverRuns += r.lateTumbling().size() + r.lateSessions().size();
        }
        assertThat(overLate).as("readings 30 days behind in the input").isEqualTo(2 * 200);
        assertThat(lateOverRuns).as("readings found late over both runs").isPositive();
    }

    /** Sessions of one feed in the given order: one record per poll, every watermark sent at once. */
    private static List<String> sessionsInOrder(Reading... readings) {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1).watermarkInterval(Duration.ZERO));
        FeedSource<Reading> feed = new FeedSource<>();
        CollectSink<String> out = new CollectSink<>();
        pipeline.fromSource(feed, WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()), "feed")
                .keyBy(Reading::machine)
                .window(Windows.session(Duration.ofMillis(GAP_MS)))
                .aggregate(new WindowsExamplesTest.CountReadings<>(), new Describe())
                .sinkTo(out);
        for (Reading r : readings) {
            feed.add(r);
        }
        feed.end();
        pipeline.execute("session boundary");
        return sorted(out.results());
    }

    @Test
    void aRecordAtExactlyASessionsEnd_joinsTheSessionOnlyIfItArrivesBeforeTheSessionFires() {
        // m's session [0, 10000) fires at watermark 9,999; both orders are on time for a monotonous watermark
        List<String> beforeFiring = sessionsInOrder(new Reading("m", 0), new Reading("m", 10_000), new Reading("x", 10_000));
        List<String> afterFiring = sessionsInOrder(new Reading("m", 0), new Reading("x", 10_000), new Reading("m", 10_000));

        assertThat(beforeFiring).as("the record at the session's end arrives first")
                .containsExactly("m 0 20000 2", "x 10000 20000 1")
                .isEqualTo(batchSessions(List.of(new Reading("m", 0), new Reading("m", 10_000), new Reading("x", 10_000))));
        assertThat(afterFiring).as("the watermark 9,999 arrives first")
                .containsExactly("m 0 10000 1", "m 10000 20000 1", "x 10000 20000 1");
    }
}
