package io.millrace.runtime.state.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyTable} against a {@link HashMap} model: tables whose keys are all {@link Long}s compare the primitive
 * kept in the entry; a table that also gets other keys (Integer 5 is not Long 5, strings) falls back to equals.
 */
class KeyTableKeysTest {

    @Test
    void longKeysMatchByValueNotByInstance() {
        KeyTable t = new KeyTable(false);
        Long a = 1_000_000L;
        t.insert(a, a.hashCode(), "x", Long.MAX_VALUE);
        Long copy = Long.valueOf(1_000_000L);
        assertSame("x", t.find(copy, copy.hashCode()).value);
        assertEquals(a, t.find(copy, copy.hashCode()).key(), "a Long key comes back equal (rebuilt from its value)");
        assertNull(t.find(1_000_001L, Long.hashCode(1_000_001L)));
        // same hash, different value: Long.hashCode folds the high half onto the low one
        long colliding = (1L << 32) | (1_000_000L ^ 1L);
        assertEquals(Long.hashCode(1_000_000L), Long.hashCode(colliding));
        assertNull(t.find(colliding, Long.hashCode(colliding)));
    }

    @Test
    void anIntegerKeyIsNotTheLongOfTheSameValue() {
        KeyTable t = new KeyTable(false);
        t.insert(5L, Long.hashCode(5L), "long", Long.MAX_VALUE);
        assertNull(t.find(5, Integer.hashCode(5)));
        t.insert(5, Integer.hashCode(5), "int", Long.MAX_VALUE);
        assertEquals("long", t.find(5L, Long.hashCode(5L)).value);
        assertEquals("int", t.find(5, Integer.hashCode(5)).value);
    }

    @Test
    void seededMixOfKeyKindsAgreesWithAHashMap() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            boolean ttl = random.nextBoolean();
            KeyTable t = new KeyTable(ttl);
            Map<Object, Object> model = new HashMap<>();
            // some seeds stay Long-only throughout, the others bring in other kinds of keys part way
            double otherKinds = seed % 2 == 0 ? 0 : 0.05;
            for (int step = 0; step < 20_000; step++) {
                Object key = key(random, otherKinds);
                int hash = key.hashCode();
                int op = random.nextInt(10);
                if (op < 5) {
                    KeyTable.Entry e = t.find(key, hash);
                    Object expected = model.get(key);
                    assertEquals(expected, e == null ? null : e.value, "seed " + seed + " step " + step + " find " + key);
                } else if (op < 8) {
                    KeyTable.Entry e = t.find(key, hash);
                    if (e == null) {
                        t.insert(key, hash, step, Long.MAX_VALUE);
                    } else {
                        e.value = step;
                    }
                    model.put(key, step);
                } else {
                    assertEquals(model.remove(key), t.remove(key, hash), "seed " + seed + " step " + step + " remove " + key);
                }
                assertEquals(model.size(), t.size());
            }
            Map<Object, Object> seen = new HashMap<>();
            t.forEach(seen::put);
            assertEquals(model, seen, "seed " + seed);
        }
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
