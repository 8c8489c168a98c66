package io.millrace.connector.kafka.sql;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.format.RowFormat;
import java.io.Serializable;

/**
 * Where a table's physical columns are in a Kafka record: the key fields in the record key (by the key format), the
 * value fields in the record value (by the value format; all columns, or all but the key fields). Immutable.
 */
final class RowLayout implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType physical;
    private final int[] keyFields;
    private final int[] valueFields;
    private final RowFormat keyFormat;
    private final RowFormat valueFormat;
    /** The value format's type is the table's physical type: a value decodes into the row as it is. */
    private final boolean valueIsRow;
    /** Every key field is in the value too ({@code 'value.fields-include' = 'ALL'}): rows are read from the value alone. */
    private final boolean keyInValue;

    RowLayout(RowType physical, int[] keyFields, int[] valueFields, RowFormat keyFormat, RowFormat valueFormat) {
        this.physical = physical;
        this.keyFields = keyFields;
        this.valueFields = valueFields;
        this.keyFormat = keyFormat;
        this.valueFormat = valueFormat;
        this.valueIsRow = valueFormat.type().equals(physical) && isIdentity(valueFields);
        boolean all = true;
        for (int k : keyFields) {
            boolean found = false;
            for (int v : valueFields) {
                found |= v == k;
            }
            all &= found;
        }
        this.keyInValue = all;
    }

    /** The type of the columns at {@code fields}, with their names and nullability. */
    static RowType project(RowType type, int[] fields) {
        RowType.Builder b = RowType.builder();
        for (int f : fields) {
            if (type.isNullable(f)) {
                b.nullableField(type.name(f), type.type(f));
            } else {
                b.field(type.name(f), type.type(f));
            }
        }
        return b.build();
    }

    boolean hasKey() {
        return keyFormat != null;
    }

    /** The record key of {@code row}, or null when the table has no key fields. */
    byte[] key(Row row) {
        return keyFormat == null ? null : keyFormat.encode(fields(row, keyFields, keyFormat.type()));
    }

    /** The record value of {@code row}. */
    byte[] value(Row row) {
        return valueFormat.encode(valueIsRow ? row : fields(row, valueFields, valueFormat.type()));
    }

    /**
     * The row of a record, of kind {@code kind}. The key is read only for key fields the value does not hold; a null
     * key is then an error.
     */
    Row row(byte[] key, byte[] value, RowKind kind) {
        Row v = valueFormat.decode(value);
        if (valueIsRow) {
            return kind == RowKind.INSERT ? v : v.withKind(kind);
        }
        RowBuilder b = Row.builder(physical);
        for (int i = 0; i < valueFields.length; i++) {
            b.set(valueFields[i], v.getField(i));
        }
        if (keyFormat != null && !keyInValue) {
            setKey(b, key);
        }
        return b.build(kind);
    }

    /**
     * The delete of the key {@code key} (an upsert tombstone): the key columns from the key, the others null, or a
     * placeholder (zero, false, empty) where a column is NOT NULL.
     */
    Row delete(byte[] key) {
        RowBuilder b = Row.builder(physical);
        for (int i = 0; i < physical.size(); i++) {
            if (physical.isNullable(i)) {
                b.setNull(i);
            } else {
                b.set(i, placeholder(physical.type(i)));
            }
        }
        setKey(b, key);
        return b.build(RowKind.DELETE);
    }

    private void setKey(RowBuilder b, byte[] key) {
        if (key == null) {
            throw new io.millrace.format.FormatException("the record has no key, but the table's key fields "
                    + keyFormat.type().names() + " are read from it");
        }
        Row k = keyFormat.decode(key);
        for (int i = 0; i < keyFields.length; i++) {
            b.set(keyFields[i], k.getField(i));
        }
    }

    private static Row fields(Row row, int[] fields, RowType type) {
        Object[] v = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            v[i] = row.getField(fields[i]);
        }
        return Row.of(type, v);
    }

    private static boolean isIdentity(int[] fields) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i] != i) {
                return false;
            }
        }
        return true;
    }

    private static Object placeholder(FieldType type) {
        return switch (type) {
            case BOOLEAN -> Boolean.FALSE;
            case INT, DATE, TIME -> 0;
            case BIGINT, TIMESTAMP -> 0L;
            case FLOAT -> 0f;
            case DOUBLE -> 0d;
            case STRING -> "";
            default -> null;
        };
    }
}
