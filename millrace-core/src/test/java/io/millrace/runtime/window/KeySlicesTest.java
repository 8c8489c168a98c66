package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A key's slices against a sorted map, under random inserts, updates and range removals (fixed seed). */
class KeySlicesTest {

    @Test
    void randomInsertsUpdatesAndRemovals_keepTheSlicesSortedAsASortedMapWould() {
        Random random = new Random(11);
        KeySlices slices = new KeySlices();
        TreeMap<Long, Object> model = new TreeMap<>();
        for (int step = 0; step < 5_000; step++) {
            long start = random.nextInt(200) * 5L;
            if (random.nextInt(4) == 0) {
                long to = start + random.nextInt(4) * 5L;
                boolean removed = slices.removeRange(start, to);
                boolean modelRemoved = !model.subMap(start, to).isEmpty();
                model.subMap(start, to).clear();
                assertThat(removed).isEqualTo(modelRemoved);
            } else {
                Object acc = "a" + step;
                int i = slices.indexOf(start);
                if (i >= 0) {
                    slices.set(i, acc);
                } else {
                    slices.insert(-i - 1, start, acc);
                }
                model.put(start, acc);
            }
            assertThat(slices.size()).isEqualTo(model.size());
            int i = 0;
            for (Map.Entry<Long, Object> e : model.entrySet()) {
                assertThat(slices.start(i)).isEqualTo(e.getKey());
                assertThat(slices.accumulator(i)).isSameAs(e.getValue());
                i++;
            }
            long probe = random.nextInt(210) * 5L - 3;
            Long ceiling = model.ceilingKey(probe);
            int at = slices.firstAtOrAfter(probe);
            assertThat(at == slices.size() ? null : slices.start(at)).isEqualTo(ceiling);
        }
    }

    @Test
    void removingEverySlice_leavesNone_andAMissReportsItsInsertionPoint() {
        KeySlices slices = new KeySlices();
        slices.insert(0, 10, "b");
        slices.insert(0, 0, "a");
        assertThat(slices.indexOf(10)).isEqualTo(1);
        assertThat(slices.indexOf(5)).isEqualTo(-2);
        assertThat(slices.removeRange(0, 20)).isTrue();
        assertThat(slices.size()).isZero();
        assertThat(slices.removeRange(0, 20)).isFalse();
        assertThat(slices.firstAtOrAfter(0)).isZero();
    }
}
