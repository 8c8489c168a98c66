package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SliceLayoutTest {

    @Test
    void sliceIsGcdOfSizeAndSlide_andOffsetIsNormalized() {
        SliceLayout l = SliceLayout.of(10, 4, -3);
        assertThat(l.slice()).isEqualTo(2);
        assertThat(l.offset()).isEqualTo(1);
        assertThat(SliceLayout.of(60, 60, 0).isTumbling()).isTrue();
    }

    @Test
    void negativeTimestamps_fallIntoTheSliceBelow() {
        SliceLayout l = SliceLayout.of(10, 5, 0);
        assertThat(l.sliceStart(-1)).isEqualTo(-5);
        assertThat(l.sliceStart(-5)).isEqualTo(-5);
        assertThat(l.sliceStart(4)).isEqualTo(0);
    }

    @Test
    void firstAndLastWindowEnds_matchBruteForceWindowMembership() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            long slide = 1 + random.nextInt(20);
            long size = slide * (1 + random.nextInt(4)) + (random.nextBoolean() ? 0 : random.nextInt((int) slide));
            long offset = random.nextInt(50) - 25;
            SliceLayout l = SliceLayout.of(size, slide, offset);
            long ts = random.nextInt(2000) - 1000;
            long slice = l.sliceStart(ts);
            assertThat(slice).isLessThanOrEqualTo(ts).isGreaterThan(ts - l.slice());

            long minEnd = Long.MAX_VALUE;
            long maxEnd = Long.MIN_VALUE;
            long offsetMod = Math.floorMod(offset, slide);
            for (long start = Math.floorDiv(ts - size - 2 * slide, slide) * slide + offsetMod; start <= ts + slide; start += slide) {
                boolean containsTs = start <= ts && ts < start + size;
                boolean containsSlice = start <= slice && slice + l.slice() <= start + size;
                assertThat(containsSlice).as("slice lies in the same windows as its timestamps").isEqualTo(containsTs);
                if (containsTs) {
                    minEnd = Math.min(minEnd, start + size);
                    maxEnd = Math.max(maxEnd, start + size);
                }
            }
            assertThat(l.firstWindowEnd(slice)).isEqualTo(minEnd);
            assertThat(l.lastWindowEnd(slice)).isEqualTo(maxEnd);
        }
    }

    @Test
    void sliceNamespaces_returnTheSameInstanceForARecentSlice() {
        SliceNamespaces ns = new SliceNamespaces(1000);
        Long a = ns.of(1_700_000_000_000L);
        assertThat(ns.of(1_700_000_000_000L)).isSameAs(a).isEqualTo(1_700_000_000_000L);
        assertThat(ns.of(1_700_000_001_000L)).isEqualTo(1_700_000_001_000L);
    }
}
