package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mean time between young collections that {@code state.heap.values: auto} compares lifetimes with. */
class CollectionCadenceTest {
    @Test
    void theYoungCollectorsOfEachHotSpotCollector_areToldApart() {
        assertThat(List.of("G1 Young Generation", "PS Scavenge", "Copy", "ParNew", "ZGC Minor Cycles"))
                .allMatch(CollectionCadence::isYoung);
        assertThat(List.of("G1 Old Generation", "G1 Concurrent GC", "PS MarkSweep", "MarkSweepCompact", "ZGC Major Cycles",
                "ZGC Pauses", "Shenandoah Cycles")).noneMatch(CollectionCadence::isYoung);
    }

    @Test
    void theMeanInterval_isTheUptimeOverTheYoungCollections_andFallsAsCollectionsCome() {
        long before = CollectionCadence.meanIntervalNanos();
        long uptimeNanos = ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
        assertThat(before).isPositive().isLessThanOrEqualTo(uptimeNanos);
        long count = CollectionCadence.young(ManagementFactory.getGarbageCollectorMXBeans()).stream()
                .mapToLong(b -> b.getCollectionCount()).sum();
        List<byte[]> garbage = new ArrayList<>();
        long seen = count;
        for (int round = 0; round < 2_000 && seen < count + 3; round++) { // young collections, whatever the heap
            for (int k = 0; k < 1_000; k++) {
                garbage.add(new byte[1_024]);
            }
            garbage.clear();
            seen = CollectionCadence.young(ManagementFactory.getGarbageCollectorMXBeans()).stream()
                    .mapToLong(b -> b.getCollectionCount()).sum();
        }
        assertThat(seen).as("young collections came").isGreaterThanOrEqualTo(count + 3);
        long now = ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
        assertThat(CollectionCadence.meanIntervalNanos()).isBetween(now / (seen + 5) - 1_000_000L, now / seen + 1_000_000L);
    }
}
