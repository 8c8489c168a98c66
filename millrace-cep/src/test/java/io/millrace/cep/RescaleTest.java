package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.cep.RandomPatterns.Ev;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Partial matches, pending events and the shared buffer follow their keys when the operator is restored at another
 * parallelism: two subtasks take the first half of the input, their snapshots are restored into three (and into one),
 * which take the rest; the union of all output equals the brute-force matcher's.
 */
class RescaleTest {
    private static final int MAX_PARALLELISM = 16;
    private static final List<String> KEYS = List.of("k1", "k2", "k3", "k4", "k5", "k6");
    private static final OutputTag<Ev> LATE = new OutputTag<>("late");

    @Test
    void restoredAtThreeAndAtOneSubtask_fromTwo_theMatchesAreThoseOfTheWholeInput() throws Exception {
        Random r = new Random(7);
        int compared = 0;
        int withMatches = 0;
        while (compared < 40) {
            Pattern<Ev> pattern = RandomPatterns.pattern(r);
            Nfa<Ev> nfa;
            try {
                nfa = NfaCompiler.compile(pattern);
            } catch (IllegalArgumentException e) {
                continue;
            }
            List<Ev> events = RandomPatterns.events(r, 10, KEYS);
            Map<String, List<String>> expected = new TreeMap<>();
            try {
                for (String key : KEYS) {
                    List<Ev> mine = events.stream().filter(e -> e.key().equals(key)).toList();
                    expected.put(key, BruteForceMatcher.matches(pattern, mine, Ev::time, 2_000).stream()
                            .map(m -> PatternEquivalenceTest.format(key, m)).toList());
                }
            } catch (BruteForceMatcher.TooManyMatches e) {
                continue;
            }
            List<Ev> arrivals = PatternEquivalenceTest.arrivalOrder(events, 3, r);
            for (int after : new int[] {3, 1}) {
                assertThat(run(nfa, arrivals, after)).as("pattern " + pattern + " restored at parallelism " + after + ", events " + events)
                        .isEqualTo(expected);
            }
            compared++;
            withMatches += expected.values().stream().anyMatch(l -> !l.isEmpty()) ? 1 : 0;
        }
        assertThat(withMatches).isGreaterThan(compared / 3);
    }

    private Map<String, List<String>> run(Nfa<Ev> nfa, List<Ev> arrivals, int parallelismAfter) throws Exception {
        PatternProcessFunction<Ev, String> format = new PatternProcessFunction<>() {
            @Override
            public void processMatch(Map<String, List<Ev>> match, Context ctx, io.millrace.api.functions.Collector<String> out) {
                out.collect(PatternEquivalenceTest.format((String) ctx.currentKey(), match));
            }
        };
        List<String> output = new ArrayList<>();
        List<OneInputOperatorHarness<Ev, String>> before = open(nfa, format, 2, List.of());
        int half = arrivals.size() / 2;
        long watermark = feed(before, arrivals.subList(0, half), Long.MIN_VALUE, 2);
        List<SnapshotImage> images = new ArrayList<>();
        for (var h : before) {
            images.add(SnapshotImage.take(h.keyedBackend()));
            output.addAll(h.extractOutputValues());
            h.close();
        }
        List<OneInputOperatorHarness<Ev, String>> after = open(nfa, format, parallelismAfter, images);
        for (var h : after) {
            h.processWatermark(watermark);
        }
        feed(after, arrivals.subList(half, arrivals.size()), watermark, parallelismAfter);
        for (var h : after) {
            h.endInput();
            assertThat(h.sideOutputValues(LATE)).isEmpty();
            output.addAll(h.extractOutputValues());
            h.close();
        }
        Map<String, List<String>> byKey = new TreeMap<>();
        for (String key : KEYS) {
            byKey.put(key, output.stream().filter(m -> m.startsWith(key + " ")).toList());
        }
        return byKey;
    }

    private static List<OneInputOperatorHarness<Ev, String>> open(Nfa<Ev> nfa, PatternProcessFunction<Ev, String> format, int parallelism,
            List<SnapshotImage> images) throws Exception {
        List<OneInputOperatorHarness<Ev, String>> harnesses = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            harnesses.add(OneInputOperatorHarness.<Ev, String>of(() -> new CepOperator<>(nfa, format, false, LATE))
                    .keyedBy((Ev e) -> e.key()).subtask(i, parallelism).maxParallelism(MAX_PARALLELISM).restoreBetweenInputs(false)
                    .restoring(backend -> {
                        for (SnapshotImage image : images) {
                            image.restoreInto(backend);
                        }
                    }).open());
        }
        return harnesses;
    }

    /** Feeds each event to the subtask of its key, with a bounded-disorder watermark to all; returns the last watermark. */
    private static long feed(List<OneInputOperatorHarness<Ev, String>> harnesses, List<Ev> events, long watermark, int parallelism)
            throws Exception {
        long max = watermark;
        for (Ev e : events) {
            int subtask = KeyGroups.subtaskFor(KeyGroups.keyGroupFor(e.key(), MAX_PARALLELISM), MAX_PARALLELISM, parallelism);
            harnesses.get(subtask).processElement(e, e.time());
            max = Math.max(max, e.time());
            long w = max - 3 - 1;
            if (w > watermark) {
                watermark = w;
                for (var h : harnesses) {
                    h.processWatermark(w);
                }
            }
        }
        return watermark;
    }
}
