package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Values kept encoded in a key table's arena: chunk sizes, compaction, list chains, frozen copies. */
class ValueArenaTest {
    record Reading(String sensor, long time, double value) {}

    @Test
    void chunksGrowFromTheFirstUpToTheFullSize_andALargerValueGetsAChunkOfItsOwn() {
        KeyTable t = new KeyTable(false, new ArenaCodec("readings"), false);
        for (long k = 0; k < 100_000; k++) {
            t.insert(k, Long.hashCode(k), new Reading("s" + k, k, k * 0.5), Long.MAX_VALUE);
        }
        List<Integer> lengths = t.arena().chunkLengths();
        assertThat(lengths.get(0)).isEqualTo(ValueArena.FIRST_CHUNK);
        for (int i = 1; i < lengths.size(); i++) {
            assertThat(lengths.get(i)).isEqualTo(Math.min(ValueArena.MAX_CHUNK, lengths.get(i - 1) * ValueArena.GROWTH));
        }
        assertThat(lengths.get(lengths.size() - 1)).isEqualTo(ValueArena.MAX_CHUNK);

        String big = "x".repeat(ValueArena.MAX_CHUNK + 10);
        int p = t.insert(-1L, Long.hashCode(-1L), big, Long.MAX_VALUE);
        assertThat(t.value(p)).isEqualTo(big);
        assertThat(t.arena().chunkLengths().get(t.arena().chunkLengths().size() - 1)).isGreaterThan(ValueArena.MAX_CHUNK);
        assertThat(t.value(t.find(7L, Long.hashCode(7L)))).isEqualTo(new Reading("s7", 7, 3.5));
    }

    @Test
    void aFullChunkFillsOneG1RegionAndIsLargeEnoughToBeAllocatedOutsideTheYoungGeneration() throws Exception {
        var bean = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        boolean g1 = ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(b -> b.getName().startsWith("G1"));
        long region = g1 ? Long.parseLong(bean.getVMOption("G1HeapRegionSize").getValue()) : 1 << 20;
        assertThat((long) ValueArena.MAX_CHUNK + 16).isLessThanOrEqualTo(region); // array header included: one region
        assertThat((long) ValueArena.MAX_CHUNK * 2).isGreaterThanOrEqualTo(region); // at least half: humongous
    }

    @Test
    void replacedAndRemovedValuesAreCompactedAway_andEveryLiveValueReadsBackUnchanged() {
        KeyTable t = new KeyTable(false, new ArenaCodec("latest"), false);
        Map<Long, Reading> model = new HashMap<>();
        Random random = new Random(5);
        long maxCapacity = 0;
        for (int step = 0; step < 300_000; step++) {
            long key = random.nextInt(2_000);
            int hash = Long.hashCode(key);
            if (random.nextInt(10) == 0) {
                assertThat(t.remove(key, hash)).isEqualTo(model.remove(key) != null);
                continue;
            }
            Reading r = new Reading("sensor-" + key, step, random.nextDouble());
            int p = t.find(key, hash);
            if (p < 0) {
                t.insert(key, hash, r, Long.MAX_VALUE);
            } else {
                t.setValue(p, r);
            }
            model.put(key, r);
            maxCapacity = Math.max(maxCapacity, t.arena().capacityBytes());
        }
        // 300,000 writes of ~40 bytes would be ~12 MB without compaction; about 2,000 live values stay
        assertThat(t.arena().liveBytes()).isLessThan(200_000);
        assertThat(t.arena().usedBytes()).isLessThanOrEqualTo(Math.max(2 * t.arena().liveBytes(), ValueArena.MIN_DEAD_TO_COMPACT)
                + ValueArena.MAX_CHUNK);
        assertThat(maxCapacity).isLessThan(4L * ValueArena.MAX_CHUNK);
        assertThat(t.size()).isEqualTo(model.size());
        model.forEach((k, v) -> assertThat(t.value(t.find(k, Long.hashCode(k)))).isEqualTo(v));
    }

    @Test
    void aReadValueIsACopy_changingItChangesNothingStored() {
        KeyTable t = new KeyTable(false, new ArenaCodec("lists"), false);
        int p = t.insert("k", "k".hashCode(), new ArrayList<>(List.of(1, 2)), Long.MAX_VALUE);
        @SuppressWarnings("unchecked")
        List<Integer> read = (List<Integer>) t.value(p);
        read.add(3);
        assertThat(t.value(p)).isEqualTo(List.of(1, 2));
    }

    @Test
    void listChainsKeepTheirOrderThroughCompaction_andAFrozenCopyKeepsWhatItSaw() {
        KeyTable t = new KeyTable(false, new ArenaCodec("events"), true);
        Map<Long, List<Object>> model = new HashMap<>();
        Random random = new Random(11);
        ValueArena.Frozen frozen = null;
        Map<Long, List<Object>> atFreeze = null;
        for (int step = 0; step < 100_000; step++) {
            long key = random.nextInt(500);
            int hash = Long.hashCode(key);
            int p = t.find(key, hash);
            int op = random.nextInt(20);
            if (op == 0 && p >= 0) {
                t.remove(key, hash); // a cleared list: its whole chain is dead
                model.remove(key);
            } else if (p < 0) {
                t.insert(key, hash, "e" + step, Long.MAX_VALUE);
                model.put(key, new ArrayList<>(List.of("e" + step)));
            } else {
                t.appendElement(p, "e" + step);
                model.get(key).add("e" + step);
            }
            if (step == 50_000) {
                frozen = t.freezeValues(t.size());
                atFreeze = new HashMap<>();
                for (int q = 0; q < t.size(); q++) {
                    atFreeze.put((Long) t.key(q), elements(t.value(q)));
                }
            }
        }
        assertThat(t.size()).isEqualTo(model.size());
        for (int q = 0; q < t.size(); q++) {
            assertThat(elements(t.value(q))).isEqualTo(model.get((Long) t.key(q)));
        }
        // removals since the freeze compacted the arena into new chunks; the frozen copy still reads the old ones
        assertThat(t.arena().usedBytes()).isLessThan(2_000_000);
        List<List<Object>> seen = new ArrayList<>();
        for (int q = 0; q < frozen.size(); q++) {
            seen.add(elements(frozen.value(q)));
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(atFreeze.values());
    }

    private static List<Object> elements(Object stored) {
        return stored instanceof HeapListState.Elements e ? new ArrayList<>(e) : new ArrayList<>(List.of(stored));
    }
}
