package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.SnapshotImage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code state.heap.values: auto}: which states are encoded, when they go back to objects, and what callers see. */
class AutoHeapValuesTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 31);

    /** An immutable value, as a join keeps of the side that waits. */
    record Seller(long id, String name, String state) {}

    /** Decisions every 1,000 inserts and accesses, from 2,000 entries. */
    private final EagerAutoValues auto = new EagerAutoValues(1_000, 2_000);
    private final HeapKeyedStateBackend backend = auto.backend(ALL, 32, new ManualClock(0));

    @Test
    void aLargeStateOfImmutableValues_seldomRead_isEncoded_andReadsBackEqualCopies() {
        ValueState<Seller> sellers = backend.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        for (long k = 0; k < 10_000; k++) {
            backend.setCurrentKey(k);
            sellers.update(new Seller(k, "n" + k, "OR"));
            if (k % 3 == 0) {
                backend.setCurrentKey(k / 2);
                assertThat(sellers.value()).isEqualTo(new Seller(k / 2, "n" + (k / 2), "OR"));
            }
        }
        AutoValues decisions = auto.made.get(0);
        assertThat(decisions.encoded()).as("a third of a read per new entry").isTrue();
        assertThat(decisions.changes()).isEqualTo(1);
        for (long k = 0; k < 10_000; k += 97) {
            backend.setCurrentKey(k);
            Seller read = sellers.value();
            assertThat(read).isEqualTo(new Seller(k, "n" + k, "OR"));
            assertThat(sellers.value()).as("each read decodes a copy").isEqualTo(read).isNotSameAs(read);
        }
        assertThat(backend.entryCount()).isEqualTo(10_000);
    }

    @Test
    void aSmallState_staysObjects_howeverSeldomRead() {
        ValueState<Seller> sellers = backend.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        for (int round = 0; round < 5; round++) {
            for (long k = 0; k < 1_500; k++) {
                backend.setCurrentKey(k);
                sellers.clear();
                sellers.update(new Seller(k, "n", "ID"));
            }
        }
        assertThat(auto.made.get(0).changes()).as("1,500 entries, below the 2,000 from which a state may be encoded").isZero();
        backend.setCurrentKey(7L);
        assertThat(sellers.value()).isSameAs(sellers.value());
    }

    @Test
    void anEncodedStateReadFourTimesPerNewEntry_goesBackToObjects() {
        ValueState<Seller> sellers = backend.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        for (long k = 0; k < 5_000; k++) {
            backend.setCurrentKey(k);
            sellers.update(new Seller(k, "n" + k, "CA"));
        }
        AutoValues decisions = auto.made.get(0);
        assertThat(decisions.encoded()).isTrue();
        for (int round = 0; round < 3; round++) {
            for (long k = 0; k < 5_000; k++) {
                backend.setCurrentKey(k);
                assertThat(sellers.value().id()).isEqualTo(k);
            }
        }
        assertThat(decisions.encoded()).as("only reads now").isFalse();
        assertThat(decisions.changes()).isEqualTo(2);
        backend.setCurrentKey(4_999L);
        assertThat(sellers.value()).isEqualTo(new Seller(4_999, "n4999", "CA")).isSameAs(sellers.value());
    }

    /**
     * A join's waiting rows that go as fast as they come: each key's value is cleared {@code lifeMillis} of the
     * clock after it came, one key coming every 10 µs, with young collections every second; a quarter of the
     * values are read before they go.
     */
    private static EagerAutoValues churn(ValueStateDescriptor<Seller> descriptor, long[] clock, long lifeMillis, long keys) {
        return churn(descriptor, clock, lifeMillis, keys, 1, false);
    }

    /**
     * As above, with {@code readsInFour} of every four values read, either a quarter into their life ({@code early})
     * or just before they go.
     */
    private static EagerAutoValues churn(ValueStateDescriptor<Seller> descriptor, long[] clock, long lifeMillis, long keys,
            int readsInFour, boolean early) {
        EagerAutoValues churning = new EagerAutoValues(1_000, 2_000, ArenaCodec::new, () -> clock[0], () -> 1_000_000_000L);
        churn(churning.backend(ALL, 32, new ManualClock(0)), descriptor, clock, lifeMillis, 0, keys, readsInFour, early);
        return churning;
    }

    /** Keys {@code [from, to)} of a churning flow on {@code b} (keys before {@code from} came as the same flow). */
    private static void churn(HeapKeyedStateBackend b, ValueStateDescriptor<Seller> descriptor, long[] clock, long lifeMillis,
            long from, long to, int readsInFour, boolean early) {
        ValueState<Seller> sellers = b.stateStore().getState(descriptor);
        long perKeyNanos = 10_000;
        long lag = lifeMillis * 1_000_000 / perKeyNanos; // keys held at once
        for (long k = from; k < to; k++) {
            clock[0] += perKeyNanos;
            b.setCurrentKey(k);
            sellers.update(new Seller(k, "n" + k, "WA"));
            long read = early ? k - lag / 4 : k - lag;
            if (read >= 0 && k % 4 < readsInFour) {
                b.setCurrentKey(read);
                assertThat(sellers.value()).as("key %d before it goes", read).isEqualTo(new Seller(read, "n" + read, "WA"));
            }
            if (k >= lag) {
                b.setCurrentKey(k - lag);
                sellers.clear();
            }
        }
    }

    @Test
    void entriesMoreLikelyReadThanCopied_stayObjects_untilTheyLiveLongerThanTheyAreRead() {
        long[] clock = {1};
        // three reads in four entries, each entry living 0.4 of the time between collections: as objects an entry
        // meets a collection 0.4 times, encoded it would be decoded 0.75 times
        EagerAutoValues readOften = churn(new ValueStateDescriptor<>("waiting"), clock, 400, 300_000, 3, true);
        assertThat(readOften.made.get(0).changes()).as("0.75 reads per entry against 0.4 collections met").isZero();
        // the same reads, entries living 0.9 of that time: copies would outnumber reads
        EagerAutoValues liveLong = churn(new ValueStateDescriptor<>("waiting"), clock, 900, 300_000, 3, true);
        assertThat(liveLong.made.get(0).encoded()).as("0.75 reads per entry against 0.9 collections met").isTrue();
    }

    @Test
    void anEncodedStateReadTwiceAsOftenAsItsEntriesMeetCollections_goesBackToObjects() {
        long[] clock = {1};
        ValueStateDescriptor<Seller> descriptor = new ValueStateDescriptor<>("waiting");
        EagerAutoValues changing = new EagerAutoValues(1_000, 2_000, ArenaCodec::new, () -> clock[0], () -> 1_000_000_000L);
        HeapKeyedStateBackend b = changing.backend(ALL, 32, new ManualClock(0));
        churn(b, descriptor, clock, 300, 0, 100_000, 0, true); // never read, living 0.3 of the time between collections
        AutoValues decisions = changing.made.get(0);
        assertThat(decisions.encoded()).as("unread entries living 0.3 of the time between collections").isTrue();
        churn(b, descriptor, clock, 300, 100_000, 300_000, 3, true); // now 0.75 reads per entry: more than twice 0.3
        assertThat(decisions.encoded()).as("0.75 reads per entry against 0.3 collections met").isFalse();
        assertThat(decisions.changes()).isEqualTo(2);
    }

    @Test
    void aLargeStateWhoseEntriesDieYoung_staysObjects_howeverSeldomRead() {
        long[] clock = {1};
        // 100 ms lives (10,000 entries held) against a collection every second: few values would ever be copied
        EagerAutoValues shortLived = churn(new ValueStateDescriptor<>("sellers"), clock, 100, 200_000);
        assertThat(shortLived.made.get(0).changes()).as("entries live a tenth of the time between collections").isZero();
        // the same flow, entries living 400 ms: most meet a collection
        EagerAutoValues longLived = churn(new ValueStateDescriptor<>("sellers"), clock, 400, 200_000);
        assertThat(longLived.made.get(0).encoded()).as("entries live 0.4 of the time between collections").isTrue();
    }

    @Test
    void aStateNeverCleared_isEncodedOnceItHasHeldEntriesForAQuarterOfTheTimeBetweenCollections() {
        long[] clock = {1};
        EagerAutoValues growing = new EagerAutoValues(1_000, 2_000, ArenaCodec::new, () -> clock[0], () -> 1_000_000_000L);
        HeapKeyedStateBackend b = growing.backend(ALL, 32, new ManualClock(0));
        ValueState<Seller> sellers = b.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        long k = 0;
        for (; k < 20_000; k++) { // 200 ms: younger than a quarter of a second, whatever it may become
            clock[0] += 10_000;
            b.setCurrentKey(k);
            sellers.update(new Seller(k, "n", "WY"));
        }
        AutoValues decisions = growing.made.get(0);
        assertThat(decisions.changes()).as("the oldest entry is 200 ms old").isZero();
        for (; k < 30_000; k++) {
            clock[0] += 10_000;
            b.setCurrentKey(k);
            sellers.update(new Seller(k, "n", "WY"));
        }
        assertThat(decisions.encoded()).as("the oldest entry is 300 ms old, none has gone").isTrue();
    }

    @Test
    void anEncodedStateWhoseEntriesStartDyingYoung_goesBackToObjects() {
        long[] clock = {1};
        long[] interval = {0}; // at first: every state counts as long-lived
        EagerAutoValues changing = new EagerAutoValues(1_000, 2_000, ArenaCodec::new, () -> clock[0], () -> interval[0]);
        HeapKeyedStateBackend b = changing.backend(ALL, 32, new ManualClock(0));
        ValueState<Seller> sellers = b.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        for (long k = 0; k < 5_000; k++) {
            clock[0] += 10_000;
            b.setCurrentKey(k);
            sellers.update(new Seller(k, "n", "AZ"));
        }
        AutoValues decisions = changing.made.get(0);
        assertThat(decisions.encoded()).isTrue();
        interval[0] = 1_000_000_000L; // collections every second; from now on each entry lives 10 ms
        for (long k = 5_000; k < 100_000; k++) {
            clock[0] += 10_000;
            b.setCurrentKey(k);
            sellers.update(new Seller(k, "n", "AZ"));
            b.setCurrentKey(k - 1_000);
            sellers.clear();
        }
        assertThat(decisions.encoded()).as("entries now live 10 ms against collections every second").isFalse();
        assertThat(decisions.changes()).isEqualTo(2);
        b.setCurrentKey(99_999L);
        assertThat(sellers.value()).isEqualTo(new Seller(99_999, "n", "AZ")).isSameAs(sellers.value());
    }

    @Test
    void mutableValues_areNeverEncoded_andChangesInPlaceStay() {
        ValueState<List<Long>> lists = backend.stateStore().getState(new ValueStateDescriptor<>("lists"));
        for (long k = 0; k < 10_000; k++) {
            backend.setCurrentKey(k);
            lists.update(new ArrayList<>(List.of(k)));
        }
        AutoValues decisions = auto.made.get(0);
        assertThat(decisions.off()).isTrue();
        assertThat(decisions.changes()).isZero();
        backend.setCurrentKey(42L);
        lists.value().add(43L); // in place, no update: kept as objects, so it stays
        assertThat(lists.value()).containsExactly(42L, 43L);
    }

    @Test
    void aMutableValueWhoseWriteMakesTheDecision_isNotEncodedWithTheState() {
        for (boolean replacement : new boolean[] {false, true}) {
            EagerAutoValues eager = new EagerAutoValues(1_000, 2_000);
            HeapKeyedStateBackend heap = eager.backend(ALL, 32, new ManualClock(0));
            ValueState<Object> values = heap.stateStore().getState(new ValueStateDescriptor<>("values"));
            for (long k = 0; k < 2_999; k++) {
                heap.setCurrentKey(k);
                values.update(new Seller(k, "n", "OR"));
            }
            assertThat(eager.made.get(0).changes()).isZero();
            // the 3,000th operation decides (2,999 entries, no reads): to encode, but its own value is mutable
            heap.setCurrentKey(replacement ? 5L : 2_999L);
            List<String> mutable = new ArrayList<>(List.of("a"));
            values.update(mutable);
            AutoValues decisions = eager.made.get(0);
            assertThat(decisions.changes()).as("encoded, then back").isEqualTo(2);
            assertThat(decisions.off()).isTrue();
            mutable.add("b");
            assertThat(values.value()).as(replacement ? "replacement" : "new entry").isSameAs(mutable);
        }
    }

    @Test
    void aMutableValueWrittenToAnEncodedState_bringsItBackToObjectsForGood() {
        ValueState<Object> values = backend.stateStore().getState(new ValueStateDescriptor<>("values"));
        for (long k = 0; k < 5_000; k++) {
            backend.setCurrentKey(k);
            values.update(new Seller(k, "n", "WA"));
        }
        AutoValues decisions = auto.made.get(0);
        assertThat(decisions.encoded()).isTrue();
        backend.setCurrentKey(3L);
        List<String> mutable = new ArrayList<>(List.of("a"));
        values.update(mutable);
        assertThat(decisions.encoded()).isFalse();
        assertThat(decisions.off()).isTrue();
        mutable.add("b");
        assertThat(values.value()).as("the stored object itself").isSameAs(mutable);
        for (long k = 5_000; k < 20_000; k++) {
            backend.setCurrentKey(k);
            values.update(new Seller(k, "n", "WA"));
        }
        assertThat(decisions.changes()).as("encoded once, back once, never again").isEqualTo(2);
        for (long k : new long[] {0, 2, 4, 4_999, 5_000, 19_999}) {
            backend.setCurrentKey(k);
            assertThat(values.value()).isEqualTo(new Seller(k, "n", "WA"));
        }
    }

    /** A codec that refuses sellers from Wyoming, as the serializer refuses what it cannot encode. */
    static final class RefusingCodec extends ArenaCodec {
        RefusingCodec(String state) {
            super(state);
        }

        @Override
        byte[] scratch(Object value) {
            if (value instanceof Seller s && s.state().equals("WY")) {
                throw new IllegalArgumentException("no encoding for Wyoming");
            }
            return super.scratch(value);
        }
    }

    @Test
    void aValueTheCodecRefuses_isKeptAsAnObject_andTheStateStaysObjectsForGood() {
        EagerAutoValues refusing = new EagerAutoValues(1_000, 2_000, RefusingCodec::new);
        HeapKeyedStateBackend heap = refusing.backend(ALL, 32, new ManualClock(0));
        ValueState<Seller> sellers = heap.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        ValueState<Seller> newest = heap.stateStore().getState(new ValueStateDescriptor<>("newest"));
        ListState<Seller> waiting = heap.stateStore().getListState(new ListStateDescriptor<>("waiting"));
        for (long k = 0; k < 5_000; k++) {
            heap.setCurrentKey(k);
            sellers.update(new Seller(k, "n", "OR"));
            newest.update(new Seller(k, "n", "OR"));
            waiting.add(new Seller(k, "first", "OR"));
        }
        assertThat(refusing.made).hasSize(3).allMatch(AutoValues::encoded);
        heap.setCurrentKey(7L);
        sellers.update(new Seller(7, "n", "WY")); // a replacement
        waiting.add(new Seller(7, "second", "WY")); // an append
        heap.setCurrentKey(5_000L);
        newest.update(new Seller(5_000, "n", "WY")); // a new entry
        assertThat(refusing.made).allMatch(AutoValues::off).noneMatch(AutoValues::encoded);
        heap.setCurrentKey(7L);
        assertThat(sellers.value()).isEqualTo(new Seller(7, "n", "WY"));
        assertThat(waiting.get()).containsExactly(new Seller(7, "first", "OR"), new Seller(7, "second", "WY"));
        heap.setCurrentKey(5_000L);
        assertThat(newest.value()).isEqualTo(new Seller(5_000, "n", "WY"));
        heap.setCurrentKey(4_999L);
        assertThat(sellers.value()).isEqualTo(new Seller(4_999, "n", "OR"));
        assertThat(newest.value()).isEqualTo(new Seller(4_999, "n", "OR"));
        assertThat(heap.entryCount()).isEqualTo(3 * 5_000 + 1);
    }

    @Test
    void listState_isEncodedAsChains_andAMutableElementBringsItBackWithEveryElementInOrder() {
        ListState<Object> waiting = backend.stateStore().getListState(new ListStateDescriptor<>("waiting"));
        for (long k = 0; k < 6_000; k++) {
            backend.setCurrentKey(k);
            waiting.add(new Seller(k, "first", "OR"));
            if (k % 2 == 0) {
                waiting.add(new Seller(k, "second", "OR"));
            }
        }
        AutoValues decisions = auto.made.get(0);
        assertThat(decisions.encoded()).isTrue();
        backend.setCurrentKey(10L);
        waiting.addAll(List.of(new Seller(10, "third", "OR"), new ArrayList<>(List.of("mutable")), new Seller(10, "fifth", "OR")));
        assertThat(decisions.encoded()).isFalse();
        assertThat(waiting.get()).containsExactly(new Seller(10, "first", "OR"), new Seller(10, "second", "OR"),
                new Seller(10, "third", "OR"), List.of("mutable"), new Seller(10, "fifth", "OR"));
        backend.setCurrentKey(11L);
        assertThat(waiting.get()).containsExactly(new Seller(11, "first", "OR"));
    }

    @Test
    void aSnapshotTakenWhileObjects_andWrittenAfterTheStateWasEncoded_holdsItsMoment() throws Exception {
        ValueState<Seller> sellers = backend.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        for (long k = 0; k < 1_900; k++) {
            backend.setCurrentKey(k);
            sellers.update(new Seller(k, "before", "ID"));
        }
        var snapshot = backend.snapshot(1);
        for (long k = 1_900; k < 5_000; k++) {
            backend.setCurrentKey(k);
            sellers.update(new Seller(k, "after", "ID"));
        }
        assertThat(auto.made.get(0).encoded()).isTrue();
        HeapKeyedStateBackend restored = new HeapKeyedStateBackend(ALL, 32, new ManualClock(0));
        SnapshotImage.write(snapshot, ALL).restoreInto(restored);
        ValueState<Seller> back = restored.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        assertThat(restored.entryCount()).isEqualTo(1_900);
        for (long k = 0; k < 1_900; k += 7) {
            restored.setCurrentKey(k);
            assertThat(back.value()).isEqualTo(new Seller(k, "before", "ID"));
        }
        var second = backend.snapshot(2);
        HeapKeyedStateBackend again = auto.backend(ALL, 32, new ManualClock(0));
        SnapshotImage.write(second, ALL).restoreInto(again);
        ValueState<Seller> all = again.stateStore().getState(new ValueStateDescriptor<>("sellers"));
        assertThat(again.entryCount()).isEqualTo(5_000);
        again.setCurrentKey(4_321L);
        assertThat(all.value()).isEqualTo(new Seller(4_321, "after", "ID"));
    }
}
