package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Heap backends under {@code state.heap.values: auto} whose states decide every {@code period} inserts and accesses
 * from {@code minEntries} entries on, so that tests meet many changes between objects and encoded values; keeps
 * every state's decisions.
 */
final class EagerAutoValues {
    private final long period;
    private final long minEntries;
    final List<AutoValues> made = new ArrayList<>();

    private final java.util.function.Function<String, ArenaCodec> codecs;
    private final LongSupplier nanoClock;
    private final LongSupplier collectionInterval;

    /** Every state counts as long-lived (no time between young collections is given). */
    EagerAutoValues(long period, long minEntries) {
        this(period, minEntries, ArenaCodec::new);
    }

    /** With {@code codecs} making each state's codec (a test's codec may refuse values). */
    EagerAutoValues(long period, long minEntries, java.util.function.Function<String, ArenaCodec> codecs) {
        this(period, minEntries, codecs, System::nanoTime, () -> 0);
    }

    /** With the time ({@code nanoClock}) and the time between young collections ({@code collectionInterval}, ns) given. */
    EagerAutoValues(long period, long minEntries, java.util.function.Function<String, ArenaCodec> codecs, LongSupplier nanoClock,
            LongSupplier collectionInterval) {
        this.period = period;
        this.minEntries = minEntries;
        this.codecs = codecs;
        this.nanoClock = nanoClock;
        this.collectionInterval = collectionInterval;
    }

    HeapKeyedStateBackend backend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(null, range, maxParallelism, clock, HeapValues.AUTO, () -> {
            AutoValues a = new AutoValues(period, period, minEntries, codecs, nanoClock, collectionInterval);
            made.add(a);
            return a;
        });
    }

    /** Changes between objects and encoded values, over every state of every backend made. */
    int changes() {
        return made.stream().mapToInt(AutoValues::changes).sum();
    }
}
