package io.millrace.sql.parser;

/**
 * A column type as written in DDL: a base type, its precision where it takes one (0 when not given), and whether
 * the column may be null.
 */
public record TypeSpec(Base base, int precision, boolean nullable) {
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
        TIME("TIME");

        private final String sqlName;

        Base(String sqlName) {
            this.sqlName = sqlName;
        }

        public String sqlName() {
            return sqlName;
        }
    }

    /** Like {@code TIMESTAMP_LTZ(3) NOT NULL}. */
    @Override
    public String toString() {
        boolean timestamp = base == Base.TIMESTAMP || base == Base.TIMESTAMP_LTZ || base == Base.TIME;
        return base.sqlName() + (timestamp ? "(" + precision + ")" : "") + (nullable ? "" : " NOT NULL");
    }
}
