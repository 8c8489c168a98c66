package io.millrace.runtime.window;

import io.millrace.api.functions.KeySelector;

/**
 * What a {@link LocalWindowAggregator} sends through the keyed exchange in place of the records of one key and
 * one slice: the key, the records folded in arrival order (the reduced record, or the aggregate function's
 * accumulator), and how many records that is (a late partial counts as that many late records). Its timestamp
 * on the edge lies in the slice. The window operator that receives it owns the
 * partial from then on and may fold other partials into it.
 *
 * <p>It also carries the key's {@code hashCode} and, when the key is a {@link Long} ({@code numeric}), its value
 * ({@code number}; 0 otherwise): the window operator runs on another thread, where the key object made by the
 * sender is out of cache, and finds the key's accumulator from these without loading it.
 */
record PartialAggregate(Object key, int hash, boolean numeric, long number, Object partial, int records) {

    /** Routes a partial by its key: to the same key group, hence subtask, as the records it folds. */
    static final KeySelector<Object, Object> BY_KEY = new ByKey();

    private static final class ByKey implements KeySelector<Object, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object getKey(Object value) {
            return ((PartialAggregate) value).key();
        }

        /** One instance per JVM, also after a copy by serialization. */
        private Object readResolve() {
            return BY_KEY;
        }
    }
}
