package io.millrace.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link WindowKeys} against an insertion-ordered map of lists: the distinct keys in order of first appearance,
 * each with its accumulators in the order added, whether keys come as numbers (Long keys of a table that keeps
 * numbers only), as objects, or first one way and then the other; reused after {@link WindowKeys#clear}.
 */
class WindowKeysTest {

    @Test
    void seededKeysAgreeWithAnInsertionOrderedMap() {
        WindowKeys keys = new WindowKeys();
        for (long seed = 1; seed <= 30; seed++) {
            Random random = new Random(seed);
            Map<Object, List<Object>> model = new LinkedHashMap<>();
            boolean mixed = seed % 3 == 0;
            int entries = 1 + random.nextInt(3_000);
            for (int i = 0; i < entries; i++) {
                Object key = mixed && random.nextInt(20) == 0 ? "k" + random.nextInt(50) : (Object) (long) random.nextInt(500);
                boolean asNumber = key instanceof Long && random.nextBoolean();
                String acc = "acc" + i;
                keys.add(asNumber ? null : key, key.hashCode(), key instanceof Long, key instanceof Long l ? l : 0L, acc, i);
                model.computeIfAbsent(key, k -> new ArrayList<>()).add(acc);
            }
            assertEquals(model.size(), keys.size(), "seed " + seed);
            int k = 0;
            for (Map.Entry<Object, List<Object>> e : model.entrySet()) {
                assertEquals(e.getKey(), keys.key(k), "seed " + seed + " key " + k);
                List<Object> accs = new ArrayList<>();
                keys.collect(k, accs);
                assertEquals(e.getValue(), accs, "seed " + seed + " accumulators of " + e.getKey());
                k++;
            }
            keys.clear();
            assertEquals(0, keys.size());
        }
    }
}
