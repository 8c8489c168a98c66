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
}
