package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.testing.OneInputOperatorHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Small hand-checked cases of the semantics in docs/cep.md, on events named by their first letter. */
class QuantifierSemanticsTest {
    static final class Names extends PatternProcessFunction<String, String> {
        @Override
        public void processMatch(Map<String, List<String>> match, Context ctx, io.millrace.api.functions.Collector<String> out) {
            List<String> all = new ArrayList<>();
            match.values().forEach(all::addAll);
            out.collect(String.join(" ", all));
        }
    }

    private static List<String> matches(Pattern<String> pattern, String... events) throws Exception {
        Nfa<String> nfa = NfaCompiler.compile(pattern);
        try (var h = OneInputOperatorHarness.<String, String>of(() -> new CepOperator<>(nfa, new Names(), false, null))
                .keyedBy((String s) -> "k").open()) {
            for (int i = 0; i < events.length; i++) {
                h.processElement(events[i], i + 1);
            }
            h.endInput();
            return h.extractOutputValues();
        }
    }

    @Test
    void timesTwoOptional_takesNoneOrTwo_neverOne() throws Exception {
        Pattern<String> p = Pattern.<String>begin("a").where(s -> s.startsWith("a"))
                .followedBy("b").where(s -> s.startsWith("b")).times(2).optional()
                .followedBy("c").where(s -> s.startsWith("c"));

        assertThat(matches(p, "a1", "b1", "c1")).containsExactly("a1 c1");
        assertThat(matches(p, "a1", "b1", "b2", "c1")).containsExactlyInAnyOrder("a1 b1 b2 c1", "a1 c1");
    }

    @Test
    void contiguity_nextFollowedByFollowedByAny() throws Exception {
        String[] events = {"a1", "c1", "b1", "b2"};
        assertThat(matches(Pattern.<String>begin("a").where(s -> s.startsWith("a")).next("b").where(s -> s.startsWith("b")), events)).isEmpty();
        assertThat(matches(Pattern.<String>begin("a").where(s -> s.startsWith("a")).followedBy("b").where(s -> s.startsWith("b")), events))
                .containsExactly("a1 b1");
        assertThat(matches(Pattern.<String>begin("a").where(s -> s.startsWith("a")).followedByAny("b").where(s -> s.startsWith("b")), events))
                .containsExactly("a1 b1", "a1 b2");
    }

    @Test
    void aLoop_emitsAMatchEachTimeItCouldEnd_andGreedyKeepsWhatTheLoopCanTake() throws Exception {
        Pattern<String> loop = Pattern.<String>begin("a").where(s -> s.startsWith("a")).followedBy("b").where(s -> s.startsWith("b")).oneOrMore();
        assertThat(matches(loop, "a1", "b1", "b2")).containsExactly("a1 b1", "a1 b1 b2");

        // x is both a loop event and an end event: without greedy it may end the loop, with greedy it continues it
        Pattern<String> open = Pattern.<String>begin("a").where(s -> s.startsWith("a") || s.startsWith("x")).oneOrMore().consecutive()
                .next("end").where(s -> s.startsWith("x") || s.startsWith("e"));
        Pattern<String> greedy = Pattern.<String>begin("a").where(s -> s.startsWith("a") || s.startsWith("x")).oneOrMore().consecutive()
                .greedy().next("end").where(s -> s.startsWith("x") || s.startsWith("e"));
        assertThat(matches(open, "a1", "x1", "e1")).contains("a1 x1", "a1 x1 e1");
        assertThat(matches(greedy, "a1", "x1", "e1")).contains("a1 x1 e1").doesNotContain("a1 x1");
    }

    @Test
    void notFollowedBy_betweenTwoElements() throws Exception {
        Pattern<String> p = Pattern.<String>begin("a").where(s -> s.startsWith("a"))
                .notFollowedBy("stop").where(s -> s.startsWith("s"))
                .followedBy("b").where(s -> s.startsWith("b"));
        assertThat(matches(p, "a1", "s1", "b1")).isEmpty();
        assertThat(matches(p, "a1", "c1", "b1")).containsExactly("a1 b1");
        assertThat(p.variableNames()).containsExactly("a", "stop", "b");
    }
}
