package io.millrace.runtime.state.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyTable} against a {@link HashMap} model: tables whose keys are all {@link Long}s compare the numbers
 * they keep; a table that also gets other keys (Integer 5 is not Long 5, strings) falls back to equals; removals
 * and sweeps move entries without losing any, also among many colliding hashes.
 */
class KeyTableKeysTest {

    @Test
    void longKeysMatchByValueNotByInstance() {
        KeyTable t = new KeyTable(false);
        Long a = 1_000_000L;
        t.insert(a, a.hashCode(), "x", Long.MAX_VALUE);
        Long copy = Long.valueOf(1_000_000L);
        assertSame("x", t.value(t.find(copy, copy.hashCode())));
        assertEquals(a, t.key(t.find(copy, copy.hashCode())), "a Long key comes back equal (rebuilt from its value)");
        assertEquals(-1, t.find(1_000_001L, Long.hashCode(1_000_001L)));
        // same hash, different value: Long.hashCode folds the high half onto the low one
        long colliding = (1L << 32) | (1_000_000L ^ 1L);
        assertEquals(Long.hashCode(1_000_000L), Long.hashCode(colliding));
        assertEquals(-1, t.find(colliding, Long.hashCode(colliding)));
    }

    @Test
    void anIntegerKeyIsNotTheLongOfTheSameValue() {
        KeyTable t = new KeyTable(false);
        t.insert(5L, Long.hashCode(5L), "long", Long.MAX_VALUE);
        assertEquals(-1, t.find(5, Integer.hashCode(5)));
        t.insert(5, Integer.hashCode(5), "int", Long.MAX_VALUE);
        assertEquals("long", t.value(t.find(5L, Long.hashCode(5L))));
        assertEquals("int", t.value(t.find(5, Integer.hashCode(5))));
    }

    @Test
    void seededMixOfKeyKindsAgreesWithAHashMap() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            boolean ttl = random.nextBoolean();
            KeyTable t = new KeyTable(ttl);
            Map<Object, Object> model = new HashMap<>();
            Map<Object, Long> expiries = new HashMap<>();
            // some seeds stay Long-only throughout, the others bring in other kinds of keys part way
            double otherKinds = seed % 2 == 0 ? 0 : 0.05;
            for (int step = 0; step < 20_000; step++) {
                Object key = key(random, otherKinds);
                int hash = key.hashCode();
                int op = random.nextInt(10);
                if (op < 5) {
                    int p = t.find(key, hash);
                    Object expected = model.get(key);
                    assertEquals(expected, p < 0 ? null : t.value(p), "seed " + seed + " step " + step + " find " + key);
                    if (p >= 0) {
                        assertEquals(key, t.key(p));
                        assertEquals(ttl ? expiries.get(key) : Long.MAX_VALUE, t.expiry(p), "the expiry moves with its entry");
                    }
                } else if (op < 8) {
                    int p = t.find(key, hash);
                    if (p < 0) {
                        t.insert(key, hash, step, 1_000_000L + step);
                        expiries.put(key, 1_000_000L + step);
                    } else {
                        t.setValue(p, step);
                    }
                    model.put(key, step);
                } else {
                    expiries.remove(key);
                    assertEquals(model.remove(key) != null, t.remove(key, hash), "seed " + seed + " step " + step + " remove " + key);
                }
                assertEquals(model.size(), t.size());
            }
            Map<Object, Object> seen = new HashMap<>();
            t.forEach(seen::put);
            assertEquals(model, seen, "seed " + seed);
        }
    }

    /**
     * A sweep removes what its check calls dead, wherever it stands in the table: the table's last entry moves into
     * the freed position and is looked at there next; every survivor stays findable, also among colliding hashes.
     */
    @Test
    void sweepingRemovesTheDeadAndKeepsTheRestFindable() {
        KeyTable t = new KeyTable(true);
        Map<Object, Long> live = new HashMap<>();
        for (long v = 0; v < 5_000; v++) {
            long key = v % 3 == 0 ? v * 0x1_0000_0001L : v; // a third of the keys share hash 0
            t.insert(key, Long.hashCode(key), "v" + v, v);
            if (v >= 2_500) {
                live.put(key, v);
            }
        }
        KeyTable.ExpiryCheck olderThan2500 = (table, position, now) -> table.expiry(position) < now;
        int position = 0;
        int looked = 0;
        while (position < t.size()) {
            if (!t.sweepAt(position, 2_500, olderThan2500)) {
                position++;
            }
            looked++;
        }
        assertEquals(5_000, looked, "each entry looked at once");
        assertEquals(live.size(), t.size());
        for (Map.Entry<Object, Long> e : live.entrySet()) {
            int p = t.find(e.getKey(), e.getKey().hashCode());
            assertEquals(e.getValue(), t.expiry(p));
        }
        for (long v = 0; v < 2_500; v++) {
            long key = v % 3 == 0 ? v * 0x1_0000_0001L : v;
            assertEquals(-1, t.find(key, Long.hashCode(key)));
        }
        for (Object key : live.keySet()) {
            t.remove(key, key.hashCode());
        }
        assertEquals(0, t.size());
        t.insert("a", "a".hashCode(), 1, 7);
        assertEquals(1, t.value(t.find("a", "a".hashCode())), "an emptied table takes any kind of key again");
    }

    /** Small value ranges, so that keys repeat and equal keys arrive as distinct instances. */
    private static Object key(Random random, double otherKinds) {
        if (random.nextDouble() < otherKinds) {
            return random.nextBoolean() ? (Object) random.nextInt(300) : "k" + random.nextInt(300);
        }
        long v = random.nextInt(3_000);
        return random.nextBoolean() ? Long.valueOf(v) : Long.valueOf(v * 0x1_0000_0001L);
    }
}
