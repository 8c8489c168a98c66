package io.millrace.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SliceTable} against a {@link LinkedHashMap} model (it keeps insertion order too): Long-only tables
 * compare primitives, a table that also gets other kinds of keys falls back to equals, and a cleared table
 * starts over as Long-only; copies keep the state they were taken in. Lookups and additions given the key's
 * number (as a window operator fed with partials makes them) agree with those given the key alone.
 */
class SliceTableKeysTest {

    @Test
    void seededKeysAgreeWithAnInsertionOrderedMap() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            SliceTable t = new SliceTable();
            Map<Object, Object> model = new LinkedHashMap<>();
            for (int round = 0; round < 3; round++) {
                double otherKinds = (seed + round) % 2 == 0 ? 0 : 0.05;
                for (int step = 0; step < 10_000; step++) {
                    Object key = key(random, otherKinds);
                    int hash = key.hashCode();
                    // half the steps as a window operator fed with partials: given the Long key's number
                    boolean given = random.nextBoolean();
                    boolean numeric = key instanceof Long;
                    long number = numeric ? (Long) key : 0L;
                    int p = given ? t.find(key, hash, numeric, number) : t.find(key, hash);
                    assertEquals(model.containsKey(key), p >= 0, "seed " + seed + " round " + round + " step " + step + " " + key);
                    if (p < 0 && given) {
                        t.add(key, hash, numeric, number, step);
                    } else if (p < 0) {
                        t.add(key, hash, step);
                    } else {
                        t.setValue(p, step);
                    }
                    model.put(key, step);
                }
                assertSameEntries(model, t, "seed " + seed + " round " + round);
                SliceTable copy = t.copyIfImmutable();
                assertNotNull(copy, "Integer values are immutable");
                t.clear();
                assertEquals(0, t.size());
                assertSameEntries(model, copy, "copy, seed " + seed + " round " + round);
                model.clear();
            }
        }
    }

    @Test
    void anIntegerKeyIsNotTheLongOfTheSameValue() {
        SliceTable t = new SliceTable();
        t.add(7L, Long.hashCode(7L), "long");
        assertEquals(-1, t.find(7, Integer.hashCode(7)));
        int p = t.add(7, Integer.hashCode(7), "int");
        assertEquals(p, t.find(7, Integer.hashCode(7)));
        assertEquals("long", t.get(Long.valueOf(7L), Long.hashCode(7L)));
    }

    @Test
    void whileEveryKeyIsALong_theTableKeepsNumbersNotTheKeyObjects() {
        SliceTable t = new SliceTable();
        Long first = 1_000_000L;
        Long second = 2_000_000L;
        t.add(first, first.hashCode(), "a");
        t.add(second, second.hashCode(), true, second, "b");
        assertEquals(first, t.key(0));
        assertNotSame(first, t.key(0), "a Long-only table makes its keys from their numbers");
        assertNotSame(second, t.key(1));
        assertEquals(-1, t.find("1000000", "1000000".hashCode()), "a key of another class is in no Long-only table");

        t.add("c", "c".hashCode(), "c");
        assertEquals(first, t.key(0));
        assertEquals(second, t.key(1));
        assertSame(t.key(0), t.key(0), "once a key is not a Long, the table keeps key objects");
        assertEquals(0, t.find(first, first.hashCode()));
        assertEquals(1, t.find(second, second.hashCode(), true, second));
        assertEquals(2, t.find("c", "c".hashCode()));
        assertEquals(List.of("a", "b", "c"), List.of(t.value(0), t.value(1), t.value(2)));
    }

    private static void assertSameEntries(Map<Object, Object> model, SliceTable t, String where) {
        assertEquals(model.size(), t.size(), where);
        int position = 0;
        for (Map.Entry<Object, Object> e : model.entrySet()) {
            assertEquals(e.getKey(), t.key(position), where + " key order");
            assertEquals(e.getKey().getClass(), t.key(position).getClass(), where);
            assertEquals(e.getKey().hashCode(), t.hash(position), where);
            assertEquals(e.getValue(), t.value(position), where);
            assertEquals(position, t.find(e.getKey(), e.getKey().hashCode()), where);
            boolean numeric = e.getKey() instanceof Long;
            assertEquals(position, t.find(e.getKey(), e.getKey().hashCode(), numeric, numeric ? (Long) e.getKey() : 0L), where);
            position++;
        }
    }

    private static Object key(Random random, double otherKinds) {
        if (random.nextDouble() < otherKinds) {
            return random.nextBoolean() ? (Object) random.nextInt(300) : "k" + random.nextInt(300);
        }
        long v = random.nextInt(2_000);
        return random.nextBoolean() ? Long.valueOf(v) : Long.valueOf(v * 0x1_0000_0001L);
    }
}
