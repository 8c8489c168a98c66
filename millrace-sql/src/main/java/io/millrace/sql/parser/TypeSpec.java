package io.millrace.sql.parser;

import java.util.List;

/**
 * A column type as written in DDL: a base type, its precision where it takes one (0 when not given), the scale of
 * a DECIMAL, the fields of a ROW, and whether the column may be null.
 */
public record TypeSpec(Base base, int precision, int scale, List<Field> fields, boolean nullable) {
    /** The base types DDL accepts. */
    public enum Base {
        BOOLEAN("BOOLEAN"),
        INT("INT"),
        BIGINT("BIGINT"),
        FLOAT("FLOAT"),
        DOUBLE("DOUBLE"),
        STRING("STRING"),
        /** {@code TIMESTAMP(p)}: a date and time without time zone. */
        TIMESTAMP("TIMESTAMP"),
        /** {@code TIMESTAMP_LTZ(p)} or {@code TIMESTAMP(p) WITH LOCAL TIME ZONE}: an instant. */
        TIMESTAMP_LTZ("TIMESTAMP_LTZ"),
        /** {@code DATE}: a calendar date. */
        DATE("DATE"),
        /** {@code TIME(p)}: a time of day, precision 0 to 3. */
        TIME("TIME"),
        /** {@code DECIMAL(p, s)}: an exact number of {@code p} digits, {@code s} after the point. */
        DECIMAL("DECIMAL"),
        /** {@code ROW<name type, ...>} or {@code ROW(name type, ...)}: a nested row. */
        ROW("ROW");

        private final String sqlName;

        Base(String sqlName) {
            this.sqlName = sqlName;
        }

        public String sqlName() {
            return sqlName;
        }
    }

    /** A field of a ROW type. */
    public record Field(String name, TypeSpec type) {}

    public TypeSpec {
        fields = fields == null ? List.of() : List.copyOf(fields);
    }

    /** A type without scale or fields. */
    public TypeSpec(Base base, int precision, boolean nullable) {
        this(base, precision, 0, List.of(), nullable);
    }

    /** Like {@code TIMESTAMP_LTZ(3) NOT NULL}, {@code DECIMAL(10, 2)} or {@code ROW<a INT, b STRING>}. */
    @Override
    public String toString() {
        boolean timestamp = base == Base.TIMESTAMP || base == Base.TIMESTAMP_LTZ || base == Base.TIME;
        String s = base.sqlName();
        if (timestamp) {
            s += "(" + precision + ")";
        } else if (base == Base.DECIMAL) {
            s += "(" + precision + ", " + scale + ")";
        } else if (base == Base.ROW) {
            StringBuilder b = new StringBuilder("ROW<");
            for (int i = 0; i < fields.size(); i++) {
                b.append(i == 0 ? "" : ", ").append(fields.get(i).name()).append(' ').append(fields.get(i).type());
            }
            s = b.append('>').toString();
        }
        return s + (nullable ? "" : " NOT NULL");
    }
}
