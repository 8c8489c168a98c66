package io.millrace.runtime.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One key group's timer set against a map, with keys chosen so that many timers share a hash (long chains,
 * deletions in their middle) and with the set emptied and refilled.
 */
class GroupTimersTest {
    /** A key whose hashCode is fixed, so that distinct keys collide. */
    private record Colliding(int id, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Colliding c && c.id == id;
        }
    }

    private record Id(int key, long timestamp) {}

    private static Timer<String> timer(Object key, long timestamp) {
        Timer<String> t = new Timer<>();
        t.set(key, 0, "w", timestamp);
        return t;
    }

    @Test
    void randomAddsFindsAndRemoves_matchAMap_evenWhenHashesCollide() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            GroupTimers<String> set = new GroupTimers<>();
            Map<Id, Timer<String>> model = new HashMap<>();
            List<Id> present = new ArrayList<>();
            for (int step = 0; step < 4_000; step++) {
                // few distinct hashes: keys 0..199 share 7 hash values, timestamps 0..3
                int key = random.nextInt(200);
                long timestamp = random.nextInt(4);
                Id id = new Id(key, timestamp);
                Timer<String> probe = timer(new Colliding(key, key % 7), timestamp);
                int action = random.nextInt(10);
                if (action < 5) {
                    Timer<String> found = set.find(probe);
                    if (found == null) {
                        assertThat(model).as("seed %d step %d: %s missing", seed, step, id).doesNotContainKey(id);
                        set.add(probe);
                        model.put(id, probe);
                        present.add(id);
                    } else {
                        assertThat(found).as("seed %d step %d", seed, step).isSameAs(model.get(id));
                    }
                } else if (action < 9 && !present.isEmpty()) {
                    Id victim = present.remove(random.nextInt(present.size()));
                    set.remove(model.remove(victim));
                } else {
                    assertThat(set.find(probe)).as("seed %d step %d: %s", seed, step, id).isSameAs(model.get(id));
                }
                assertThat(set.size()).isEqualTo(model.size());
            }
            for (Map.Entry<Id, Timer<String>> e : model.entrySet()) {
                Id id = e.getKey();
                assertThat(set.find(timer(new Colliding(id.key(), id.key() % 7), id.timestamp()))).isSameAs(e.getValue());
            }
            List<Timer<String>> visited = new ArrayList<>();
            set.forEach(visited::add);
            assertThat(visited).containsExactlyInAnyOrderElementsOf(model.values());
        }
    }

    @Test
    void removingEveryTimer_leavesAnEmptySet_thatTakesTimersAgain() {
        GroupTimers<String> set = new GroupTimers<>();
        List<Timer<String>> added = new ArrayList<>();
        for (long i = 0; i < 1_000; i++) {
            Timer<String> t = timer(i, 100 + i % 3);
            set.add(t);
            added.add(t);
        }
        assertThat(set.size()).isEqualTo(1_000);
        for (Timer<String> t : added) {
            set.remove(t);
        }
        assertThat(set.size()).isZero();
        assertThat(set.find(timer(5L, 102))).isNull();
        Timer<String> again = timer(5L, 102);
        set.add(again);
        assertThat(set.find(timer(5L, 102))).isSameAs(again);
        assertThat(set.find(timer(5L, 101))).isNull();
    }
}
