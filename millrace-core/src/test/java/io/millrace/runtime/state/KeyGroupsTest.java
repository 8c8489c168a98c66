package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyGroupsTest {

    @Test
    void rangesOfAllSubtasksCoverEveryKeyGroupExactlyOnce() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            int maxParallelism = 1 + random.nextInt(512);
            int parallelism = 1 + random.nextInt(maxParallelism);
            int next = 0;
            for (int subtask = 0; subtask < parallelism; subtask++) {
                KeyGroupRange range = KeyGroups.rangeFor(subtask, maxParallelism, parallelism);
                assertThat(range.start()).isEqualTo(next);
                for (int kg = range.start(); kg <= range.end(); kg++) {
                    assertThat(KeyGroups.subtaskFor(kg, maxParallelism, parallelism)).isEqualTo(subtask);
                }
                next = range.end() + 1;
            }
            assertThat(next).isEqualTo(maxParallelism);
        }
    }

    @Test
    void smallIntegerKeysSpreadOverKeyGroups() {
        int[] counts = new int[128];
        for (int key = 0; key < 12_800; key++) {
            counts[KeyGroups.keyGroupFor(key, 128)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(50, 150);
        }
    }

    /** A power-of-two maximum takes a mask instead of a division: the same group as floorMod, for any hash. */
    @Test
    void powerOfTwoMaximaGiveTheSameGroupsAsFloorMod() {
        Random random = new Random(7);
        int[] maxima = {1, 2, 128, 4096, 32768, 3, 100, 1000};
        for (int i = 0; i < 100_000; i++) {
            int h = i < 4 ? new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}[i] : random.nextInt();
            Object key = h; // an Integer's key hash is its value
            for (int max : maxima) {
                assertThat(KeyGroups.keyGroupFor(key, max)).isEqualTo(Math.floorMod(KeyGroups.mix(h), max));
            }
        }
    }
}
