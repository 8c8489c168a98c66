package io.millrace.sql.runtime;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;

/**
 * The grouping key of a window aggregation (the GROUP BY columns other than the window's bounds): the value itself
 * for one non-null column, a {@link Row} of the values for several (or a nullable one), and a constant when there
 * are none (every row in one group).
 */
public final class GroupKey implements KeySelector<Row, Object> {
    private static final long serialVersionUID = 1L;
    private static final Integer ALL = 0;

    private final Expr[] exprs;
    private final RowType keyType;
    private final boolean single;

    public GroupKey(Expr[] exprs, RowType keyType, boolean single) {
        this.exprs = exprs;
        this.keyType = keyType;
        this.single = single;
    }

    @Override
    public Object getKey(Row row) {
        if (exprs.length == 0) {
            return ALL;
        }
        if (single) {
            return exprs[0].eval(row);
        }
        Object[] v = new Object[exprs.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = Values.cast(exprs[i].eval(row), keyType.type(i));
        }
        return Row.of(keyType, v);
    }

    /** Component {@code i} of a key this selector made. */
    Object component(Object key, int i) {
        return single ? key : ((Row) key).getField(i);
    }
}
