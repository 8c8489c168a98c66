package io.millrace.api.state;

import java.io.Serializable;
import java.util.Comparator;

/** The order of sorted map keys (see {@link SortedMapStateDescriptor}): numbers by value, strings by code point. */
final class SortedKeyOrder implements Comparator<Object>, Serializable {
    static final SortedKeyOrder INSTANCE = new SortedKeyOrder();
    private static final long serialVersionUID = 1L;

    private SortedKeyOrder() {}

    @Override
    public int compare(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            int n = Math.min(x.length(), y.length());
            for (int i = 0; i < n; ) {
                int cx = x.codePointAt(i);
                int cy = y.codePointAt(i);
                if (cx != cy) {
                    return Integer.compare(cx, cy);
                }
                i += Character.charCount(cx);
            }
            return Integer.compare(x.length(), y.length());
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Integer x && b instanceof Integer y) {
            return Integer.compare(x, y);
        }
        throw new ClassCastException("sorted map keys of different or unsupported types: " + describe(a) + " and " + describe(b));
    }

    private static String describe(Object o) {
        return o == null ? "null" : o.getClass().getName();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
