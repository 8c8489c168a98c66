package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.cep.RandomPatterns.Ev;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The engine's matches and timed-out partial matches against {@link BruteForceMatcher} on seeded random patterns (every contiguity, quantifier, negation,
 * greedy and until, iterative conditions, groups, every skip strategy, with and without within) and random events of
 * two keys: in order, shuffled within the watermark's bound, and checkpointed and restored into a fresh operator after
 * every input by the operator harness; and in processing time. Subclasses run the same on another state backend.
 */
class PatternEquivalenceTest {
    static final OutputTag<Ev> LATE = new OutputTag<>("late");

    /** The timed-out partial matches of the round being run, per key, distinct and sorted. */
    private final Map<String, List<String>> timeouts = new TreeMap<>();

    /** The backend the harness keeps keyed state in (the heap by default). */
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup;
    }

    /** Rounds and events per key of the seeded comparisons. */
    protected int[] roundsAndEvents() {
        return new int[] {120, 12};
    }

    @Test
    void randomPatternsInOrder_matchTheBruteForceMatcher() throws Exception {
        compare(1, 0, true);
    }

    @Test
    void randomPatternsUnderDisorder_restoredAfterEveryInput_matchTheBruteForceMatcher() throws Exception {
        compare(2, 6, true);
    }

    @Test
    void randomPatternsUnderDisorder_withOneOperatorInstance_matchTheBruteForceMatcher() throws Exception {
        compare(3, 4, false);
    }

    @Test
    void randomPatternsInProcessingTime_restoredAfterEveryInput_matchTheBruteForceMatcher() throws Exception {
        compare(4, -1, true);
    }

    /** {@code disorder} -1: in processing time, each event arriving when the clock shows its time. */
    private void compare(long seed, int disorder, boolean restore) throws Exception {
        Random r = new Random(seed);
        int[] re = roundsAndEvents();
        int compared = 0;
        int withMatches = 0;
        int timedOut = 0;
        int attempts = 0;
        int rounds = disorder < 0 ? Math.max(2, re[0] / 3) : re[0];
        while (compared < rounds) {
            attempts++;
            Pattern<Ev> pattern = RandomPatterns.pattern(r);
            Nfa<Ev> nfa;
            try {
                nfa = NfaCompiler.compile(pattern);
            } catch (IllegalArgumentException e) {
                continue;                        // a negation at the end, an unknown skip variable: not a runnable pattern
            }
            List<Ev> events = RandomPatterns.events(r, re[1]);
            Map<String, List<String>> expected = new TreeMap<>();
            Map<String, List<String>> expectedTimeouts = new TreeMap<>();
            try {
                for (String key : List.of("k1", "k2")) {
                    List<Ev> mine = events.stream().filter(e -> e.key().equals(key)).toList();
                    BruteForceMatcher.Result<Ev> result = BruteForceMatcher.run(pattern, mine, Ev::time, 3_000);
                    expected.put(key, result.matches().stream().map(m -> format(key, m)).toList());
                    List<String> t = result.timeouts().stream().map(m -> format(key, m)).sorted().toList();
                    if (!t.isEmpty()) {
                        expectedTimeouts.put(key, t);
                    }
                }
            } catch (BruteForceMatcher.TooManyMatches e) {
                continue;
            }
            timeouts.clear();
            String context = "round " + compared + " (seed " + seed + "), pattern " + pattern + ", events " + events;
            Map<String, List<String>> actual = disorder < 0
                    ? runInProcessingTime(nfa, events, context, pattern.within() != null)
                    : run(nfa, arrivalOrder(events, disorder, r), disorder, restore, context, pattern.within() != null);
            assertThat(actual).as(context).isEqualTo(expected);
            assertThat(timeouts).as("timed-out partial matches, " + context).isEqualTo(expectedTimeouts);
            timedOut += expectedTimeouts.isEmpty() ? 0 : 1;
            compared++;
            if (!expected.get("k1").isEmpty() || !expected.get("k2").isEmpty()) {
                withMatches++;
            }
        }
        if (compared >= 20) {                             // enough rounds to say what the random patterns cover
            assertThat(withMatches).as("rounds with at least one match, of " + compared + " (" + attempts + " patterns drawn)")
                    .isGreaterThan(compared / 3);
            assertThat(timedOut).as("rounds with timed-out partial matches, of " + compared).isGreaterThan(compared / 10);
        } else {
            assertThat(withMatches + timedOut).as("rounds with matches or timed-out partial matches, of " + compared).isPositive();
        }
    }

    private Map<String, List<String>> run(Nfa<Ev> nfa, List<Ev> arrivals, int disorder, boolean restore, String context, boolean within)
            throws Exception {
        PatternProcessFunction<Ev, String> format = FORMAT;
        Map<String, List<String>> byKey = new TreeMap<>();
        byKey.put("k1", new ArrayList<>());
        byKey.put("k2", new ArrayList<>());
        try (OneInputOperatorHarness<Ev, String> h = onBackend(OneInputOperatorHarness.<Ev, String>of(
                () -> new CepOperator<>(nfa, format, false, LATE)).keyedBy((Ev e) -> e.key()).restoreBetweenInputs(restore)).open()) {
            long max = Long.MIN_VALUE;
            long watermark = Long.MIN_VALUE;
            for (Ev e : arrivals) {
                h.processElement(e, e.time());
                max = Math.max(max, e.time());
                long w = max - disorder - 1;
                if (w > watermark) {
                    watermark = w;
                    h.processWatermark(w);
                }
            }
            h.endInput();
            assertThat(h.sideOutputValues(LATE)).as("late events, " + context).isEmpty();
            for (String m : h.extractOutputValues()) {
                byKey.get(m.substring(0, 2)).add(m);
            }
            collectTimeouts(h, timeouts);
            if (within) {
                assertThat(h.keyedBackend().entryCount()).as("state entries left after the end, " + context).isZero();
                assertThat(h.numEventTimeTimers()).as("timers left after the end, " + context).isZero();
            }
        }
        return byKey;
    }

    private Map<String, List<String>> runInProcessingTime(Nfa<Ev> nfa, List<Ev> events, String context, boolean within) throws Exception {
        Map<String, List<String>> byKey = new TreeMap<>();
        byKey.put("k1", new ArrayList<>());
        byKey.put("k2", new ArrayList<>());
        try (OneInputOperatorHarness<Ev, String> h = onBackend(OneInputOperatorHarness.<Ev, String>of(
                () -> new CepOperator<>(nfa, FORMAT, true, LATE)).keyedBy((Ev e) -> e.key())).open()) {
            for (Ev e : events) {
                h.setProcessingTime(e.time());
                h.processElement(e);                          // no event timestamp: matched at the clock's time
            }
            h.setProcessingTime(events.get(events.size() - 1).time() + 1_000);
            for (String m : h.extractOutputValues()) {
                byKey.get(m.substring(0, 2)).add(m);
            }
            collectTimeouts(h, timeouts);
            if (within) {
                assertThat(h.keyedBackend().entryCount()).as("state entries left after within passed, " + context).isZero();
            }
        }
        return byKey;
    }

    static final OutputTag<String> TIMEOUTS = new OutputTag<>("timeouts");

    /** Formats matches to the main output and timed-out partial matches to {@link #TIMEOUTS}. */
    static final class Format extends PatternProcessFunction<Ev, String> implements TimedOutPartialMatchHandler<Ev> {
        @Override
        public void processMatch(Map<String, List<Ev>> match, Context ctx, io.millrace.api.functions.Collector<String> out) {
            out.collect(format((String) ctx.currentKey(), match));
        }

        @Override
        public void processTimedOutMatch(Map<String, List<Ev>> partialMatch, Context ctx) {
            ctx.output(TIMEOUTS, format((String) ctx.currentKey(), partialMatch));
        }
    }

    static final PatternProcessFunction<Ev, String> FORMAT = new Format();

    /** The distinct timed-out partial matches of the harness, per key, sorted. */
    private static void collectTimeouts(OneInputOperatorHarness<Ev, String> h, Map<String, List<String>> timeouts) {
        for (String t : new java.util.TreeSet<>(h.sideOutputValues(TIMEOUTS))) {
            timeouts.computeIfAbsent(t.substring(0, 2), k -> new ArrayList<>()).add(t);
        }
    }

    /** Events in an arrival order at most {@code disorder} behind their time order. */
    static List<Ev> arrivalOrder(List<Ev> events, int disorder, Random r) {
        if (disorder == 0) {
            return events;
        }
        Map<Ev, Long> arrival = new LinkedHashMap<>();
        for (Ev e : events) {
            arrival.put(e, e.time() + r.nextInt(disorder + 1));
        }
        List<Ev> out = new ArrayList<>(events);
        out.sort(Comparator.comparingLong(arrival::get));
        return out;
    }

    static String format(String key, Map<String, List<Ev>> match) {
        StringJoiner j = new StringJoiner(" ", key + " ", "");
        match.forEach((v, events) -> j.add(v + "=" + events.stream().map(e -> String.valueOf(e.id())).toList()));
        return j.toString();
    }
}
