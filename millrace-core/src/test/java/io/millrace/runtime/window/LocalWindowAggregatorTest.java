package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.Windows;
import io.millrace.operator.EmitPoint;
import io.millrace.runtime.exchange.KeyExtractionException;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pre-aggregating operator alone: what it folds, and when partials go out. */
class LocalWindowAggregatorTest {
    /** Concatenates values in arrival order: associative, not commutative. */
    static final ReduceFunction<Ev> TRAIL = (a, b) -> new Ev(a.key(), Long.parseLong(a.value() + "" + b.value()));

    private static OneInputOperatorHarness<Object, Object> harness(TimeWindows windows, ReduceFunction<Ev> reducer,
            AggregateFunction<Ev, ?, ?> aggregator, int maxKeys) throws Exception {
        LocalWindowAggregateSpec spec = new LocalWindowAggregateSpec(windows, reducer, aggregator, (Ev e) -> e.key(), maxKeys);
        return OneInputOperatorHarness.<Object, Object>of(new LocalWindowAggregator(spec)).open();
    }

    private static List<String> partials(OneInputOperatorHarness<Object, Object> h) {
        return h.output().stream().map(LocalWindowAggregatorTest::describe).toList();
    }

    /** "key=partial/records@timestamp", with a long[] accumulator shown as its sum. */
    private static String describe(Emitted<Object> e) {
        PartialAggregate p = (PartialAggregate) e.value();
        Object v = p.partial() instanceof Ev ev ? ev.value() : ((long[]) p.partial())[0];
        return p.key() + "=" + v + "/" + p.records() + "@" + e.timestamp();
    }

    @Test
    void recordsOfAKeyAndSlice_goOutAsOnePartialFoldedInArrivalOrder_whenTheWatermarkReachesTheirFirstWindow() throws Exception {
        try (var h = harness(Windows.tumbling(Duration.ofMillis(10)), TRAIL, null, 100)) {
            h.processElement(new Ev("a", 1), 3);
            h.processElement(new Ev("b", 5), 4);
            h.processElement(new Ev("a", 2), 1);
            h.processElement(new Ev("a", 7), 12);
            h.processElement(new Ev("a", 3), 9);
            h.processWatermark(8);
            assertThat(h.output()).as("window [0, 10) cannot fire at 8").isEmpty();
            assertThat(h.watermarks()).containsExactly(8L);

            h.processWatermark(9);
            assertThat(partials(h)).containsExactly("a=123/3@3", "b=5/1@3");
            assertThat(h.watermarks()).containsExactly(8L, 9L);

            h.clearOutput();
            h.processElement(new Ev("a", 4), 5); // late here, but maybe not downstream: it goes on like any other
            h.processWatermark(10);
            assertThat(partials(h)).containsExactly("a=4/1@5");
            h.clearOutput();
            h.endInput();
            assertThat(partials(h)).as("the final watermark emits the rest").containsExactly("a=7/1@12");
        }
    }

    @Test
    void slidingWindows_emitASliceBeforeTheFirstWindowThatContainsItMayFire() throws Exception {
        // windows of 30 ms every 10 ms: slice [10, 20) is first in window [-10, 20)
        try (var h = harness(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)), null, new Ev.SumCount(), 100)) {
            h.processElement(new Ev("a", 1), 15);
            h.processElement(new Ev("a", 2), 11);
            h.processElement(new Ev("a", 4), 25);
            h.processWatermark(18);
            assertThat(h.output()).isEmpty();
            h.processWatermark(19);
            assertThat(partials(h)).containsExactly("a=3/2@15");
        }
    }

    @Test
    void aCheckpointBarrierOrTurningIdle_emitsEverythingHeld() throws Exception {
        try (var h = harness(Windows.tumbling(Duration.ofMillis(10)), null, new Ev.SumCount(), 100)) {
            h.processElement(new Ev("a", 1), 3);
            h.processElement(new Ev("a", 2), 13);
            h.operator().emitHeldBack(EmitPoint.CHECKPOINT_BARRIER);
            assertThat(partials(h)).containsExactly("a=1/1@3", "a=2/1@13");
            assertThat(h.watermarks()).as("no watermark with a barrier").isEmpty();

            h.clearOutput();
            h.processElement(new Ev("b", 5), 4);
            h.processElement(new Ev("b", 6), 5);
            h.operator().emitHeldBack(EmitPoint.IDLE);
            assertThat(partials(h)).containsExactly("b=11/2@4");
            h.clearOutput();
            h.operator().emitHeldBack(EmitPoint.CHECKPOINT_BARRIER);
            assertThat(h.output()).as("nothing held any more").isEmpty();
        }
    }

    @Test
    void aSubtaskAboutToWaitForInput_emitsEverythingHeld_onceTheOldestPartialIsTwoMillisecondsOld() throws Exception {
        try (var h = harness(Windows.sliding(Duration.ofMillis(20), Duration.ofMillis(10)), TRAIL, null, 100)) {
            h.operator().emitHeldBack(EmitPoint.WAITING_FOR_INPUT);
            assertThat(h.output()).as("nothing held, nothing sent").isEmpty();
            h.processElement(new Ev("a", 1), 3);
            h.processElement(new Ev("a", 2), 4);
            h.clock().advance(Duration.ofMillis(1));
            h.processElement(new Ev("b", 3), 12);
            h.operator().emitHeldBack(EmitPoint.WAITING_FOR_INPUT);
            assertThat(h.output()).as("held for 1 ms: a paced source's next records may still combine").isEmpty();
            h.clock().advance(Duration.ofMillis(1));
            h.operator().emitHeldBack(EmitPoint.WAITING_FOR_INPUT);
            assertThat(partials(h)).containsExactly("a=12/2@3", "b=3/1@12");
            assertThat(h.watermarks()).as("no watermark of its own").isEmpty();

            h.clearOutput();
            h.processElement(new Ev("a", 4), 5);
            h.processWatermark(9);
            assertThat(partials(h)).as("later records of the slice form a new partial").containsExactly("a=4/1@5");
        }
    }

    @Test
    void moreThanMaxKeysPartials_emitsEverythingHeld() throws Exception {
        try (var h = harness(Windows.tumbling(Duration.ofMillis(10)), TRAIL, null, 3)) {
            h.processElement(new Ev("a", 1), 1);
            h.processElement(new Ev("b", 2), 2);
            h.processElement(new Ev("a", 3), 3);
            h.processElement(new Ev("c", 4), 14);
            assertThat(h.output()).as("3 partials held").isEmpty();
            h.processElement(new Ev("d", 5), 15);
            assertThat(partials(h)).as("the 4th partial: all go, oldest slice first").containsExactly("a=13/2@1", "b=2/1@1", "c=4/1@14", "d=5/1@14");
            h.clearOutput();
            h.processElement(new Ev("a", 6), 6);
            h.endInput();
            assertThat(partials(h)).containsExactly("a=6/1@6");
        }
    }

    @Test
    void aKeySelectorThatFailsOrReturnsNull_failsNamingTheOperatorAndTheRecord() throws Exception {
        LocalWindowAggregateSpec spec = new LocalWindowAggregateSpec(Windows.tumbling(Duration.ofMillis(10)), TRAIL, null,
                (Ev e) -> e.value() < 0 ? null : e.key().substring(e.value() > 100 ? 10 : 0), 100);
        try (var h = OneInputOperatorHarness.<Object, Object>of(new LocalWindowAggregator(spec)).name("sum (local)").open()) {
            h.processElement(new Ev("a", 1), 3);
            assertThatThrownBy(() -> h.processElement(new Ev("b", 500), 4))
                    .isInstanceOf(KeyExtractionException.class)
                    .hasMessageContaining("the key selector of 'sum (local)' failed on record " + new Ev("b", 500))
                    .hasCauseInstanceOf(StringIndexOutOfBoundsException.class);
            assertThatThrownBy(() -> h.processElement(new Ev("c", -2), 4))
                    .isInstanceOf(KeyExtractionException.class)
                    .hasMessageContaining("the key selector of 'sum (local)' returned null for record " + new Ev("c", -2));
        }
    }
    @Test
    void aPartialCarriesItsKeysHash_andItsNumberWhileEveryKeyOfTheSliceIsALong() throws Exception {
        LocalWindowAggregateSpec spec = new LocalWindowAggregateSpec(Windows.tumbling(Duration.ofMillis(10)), TRAIL, null,
                (Ev e) -> e.key().startsWith("s") ? (Object) e.key() : (Object) Long.parseLong(e.key()), 100);
        try (var h = OneInputOperatorHarness.<Object, Object>of(new LocalWindowAggregator(spec)).open()) {
            h.processElement(new Ev("-5", 1), 1);
            h.processElement(new Ev("4294967297", 2), 2);
            h.processElement(new Ev("-5", 3), 3);
            h.processElement(new Ev("s", 4), 14); // the second slice also gets a String key
            h.processElement(new Ev("9", 5), 15);
            h.endInput();
            List<PartialAggregate> out = h.output().stream().map(e -> (PartialAggregate) e.value()).toList();
            assertThat(out).extracting(PartialAggregate::key).containsExactly(-5L, 4294967297L, "s", 9L);
            for (PartialAggregate p : out) {
                assertThat(p.hash()).as("hash of %s", p.key()).isEqualTo(p.key().hashCode());
            }
            assertThat(out).extracting(PartialAggregate::numeric).containsExactly(true, true, false, false);
            assertThat(out.subList(0, 2)).extracting(PartialAggregate::number).containsExactly(-5L, 4294967297L);
        }
    }
}
