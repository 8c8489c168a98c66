package io.millrace.runtime.state.serde;

/**
 * A small open-addressing map from int to object, without boxing the keys: a serializer's cache of
 * shapes by id. Not thread-safe.
 */
final class IntMap<V> {
    private int[] keys = new int[16];
    private Object[] values = new Object[16];
    private int size;

    @SuppressWarnings("unchecked")
    V get(int key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) v;
            }
        }
    }

    /** Adds or replaces; {@code value} must not be null. */
    void put(int key, V value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            if (values[i] == null) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
        }
    }

    private void grow() {
        int[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                @SuppressWarnings("unchecked")
                V v = (V) oldValues[i];
                put(oldKeys[i], v);
            }
        }
    }

    private static int mix(int key) {
        return key ^ (key >>> 16);
    }
}
