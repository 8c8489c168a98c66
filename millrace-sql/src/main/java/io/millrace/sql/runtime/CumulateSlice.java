package io.millrace.sql.runtime;

/**
 * The accumulator of one key over one step of a CUMULATE window, {@code [end - step, end)}: what the first stage of a
 * cumulative window aggregation (a tumbling window of one step) sends to the second ({@link CumulateFunction}).
 */
public record CumulateSlice(Object key, long end, SqlAccumulator accumulator) implements java.io.Serializable {
    /** The key of the slice, for the exchange before {@link CumulateFunction}. */
    public static final class Key implements io.millrace.api.functions.KeySelector<CumulateSlice, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object getKey(CumulateSlice slice) {
            return slice.key();
        }
    }
}
