package io.millrace.runtime.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The timer queue against a simple model: a sorted map by (timestamp, registration order) and a set for deduplication. */
class TimerQueueTest {
    private static final int MAX_PARALLELISM = 128;
    private static final KeyGroupRange RANGE = new KeyGroupRange(0, MAX_PARALLELISM - 1);

    private record Id(Object key, String namespace, long timestamp) {}

    private record Order(long timestamp, long sequence) {}

    @Test
    void timersOfOneTimestamp_fireInRegistrationOrder_andEarlierTimestampsFirst() {
        TimerQueue<String> q = new TimerQueue<>(RANGE);
        add(q, "b", "w", 20);
        add(q, "a", "w", 10);
        add(q, "c", "w", 20);
        add(q, "d", "w", 10);
        assertThat(add(q, "a", "w", 10)).isFalse();

        List<String> fired = new ArrayList<>();
        while (q.size() > 0) {
            fired.add(q.poll().key() + "@" + q.size());
        }
        assertThat(fired).containsExactly("a@3", "d@2", "b@1", "c@0");
        assertThat(q.peekTimestamp()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void randomRegistrationsDeletionsAndFirings_matchTheModel() {
        Random random = new Random(7);
        for (int run = 0; run < 20; run++) {
            TimerQueue<String> q = new TimerQueue<>(RANGE);
            TreeMap<Order, Id> model = new TreeMap<>(Comparator.comparingLong(Order::timestamp).thenComparingLong(Order::sequence));
            Set<Id> registered = new HashSet<>();
            java.util.Map<Id, Order> orderOf = new java.util.HashMap<>();
            long sequence = 0;
            // few distinct timestamps in some runs (window ends), many in others
            int timestamps = run % 2 == 0 ? 4 : 2_000;
            long base = 0;
            for (int step = 0; step < 5_000; step++) {
                int op = random.nextInt(10);
                Id id = new Id(random.nextInt(300), random.nextBoolean() ? "x" : "y", base + random.nextInt(timestamps));
                if (op < 6) {
                    boolean added = add(q, id.key(), id.namespace(), id.timestamp());
                    assertThat(added).isEqualTo(registered.add(id));
                    if (added) {
                        Order o = new Order(id.timestamp(), sequence++);
                        model.put(o, id);
                        orderOf.put(id, o);
                    }
                } else if (op < 8) {
                    q.remove(id.key(), group(id.key()), id.namespace(), id.timestamp());
                    if (registered.remove(id)) {
                        model.remove(orderOf.remove(id));
                    }
                } else if (!model.isEmpty()) {
                    assertThat(q.peekTimestamp()).isEqualTo(model.firstKey().timestamp());
                    Id expected = model.pollFirstEntry().getValue();
                    registered.remove(expected);
                    orderOf.remove(expected);
                    Timer<String> t = q.poll();
                    assertThat(new Id(t.key(), t.namespace(), t.timestamp())).isEqualTo(expected);
                    base = Math.max(base, t.timestamp() - timestamps / 2);
                }
                assertThat(q.size()).isEqualTo(model.size());
            }
            List<Id> perGroup = new ArrayList<>();
            for (int g = RANGE.start(); g <= RANGE.end(); g++) {
                int group = g;
                q.forEachInGroup(g, t -> {
                    assertThat(t.keyGroup()).isEqualTo(group);
                    perGroup.add(new Id(t.key(), t.namespace(), t.timestamp()));
                });
            }
            assertThat(perGroup).containsExactlyInAnyOrderElementsOf(model.values());
            while (!model.isEmpty()) {
                Timer<String> t = q.poll();
                assertThat(new Id(t.key(), t.namespace(), t.timestamp())).isEqualTo(model.pollFirstEntry().getValue());
            }
            assertThat(q.size()).isZero();
        }
    }

    private static int group(Object key) {
        return KeyGroups.keyGroupFor(key, MAX_PARALLELISM);
    }

    private static boolean add(TimerQueue<String> q, Object key, String namespace, long timestamp) {
        return q.add(key, group(key), namespace, timestamp);
    }

    /**
     * Reading ahead ({@code TimerQueue.readAhead}, used when many timers fire at once) covers at most the asked
     * number of timers of the earliest timestamp, and changes neither the firing order nor the keys' state.
     */
    @Test
    void readingAhead_coversTheEarliestTimestampOnly_andChangesNothing() throws Exception {
        HeapKeyedStateBackend backend = new HeapKeyedStateBackend(RANGE, MAX_PARALLELISM, new ManualClock(0));
        ValueState<Long> value = backend.stateStore().getState(new ValueStateDescriptor<>("v"));
        TimerQueue<String> q = new TimerQueue<>(RANGE);
        List<String> expected = new ArrayList<>();
        for (long k = 0; k < 50; k++) {
            add(q, k, "w", 10);
            expected.add(k + "@10");
            backend.setCurrentKey(k);
            value.update(k * 7);
        }
        for (long k = 0; k < 3; k++) {
            add(q, k, "w", 20);
        }
        expected.addAll(List.of("0@20", "1@20", "2@20"));
        backend.setCurrentKey(null);

        assertThat(q.readAhead(32, backend)).isEqualTo(32);
        assertThat(q.readAhead(100, backend)).isEqualTo(50);
        List<String> fired = new ArrayList<>();
        while (q.size() > 0) {
            int ahead = q.readAhead(8, backend);
            assertThat(ahead).isBetween(1, 8);
            Timer<String> t = q.poll();
            fired.add(t.key() + "@" + t.timestamp());
            backend.setCurrentKey(t.key());
            assertThat(value.value()).isEqualTo((Long) t.key() * 7);
        }
        assertThat(fired).isEqualTo(expected);
        assertThat(q.readAhead(32, backend)).isZero();
        assertThat(backend.readAhead(99L, KeyGroups.keyGroupFor(99L, MAX_PARALLELISM))).as("a key without state").isZero();
    }
}
