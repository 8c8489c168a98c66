package io.millrace.api.row;

/**
 * What a record of a changelog does to the table it describes. An update is two records, the row as it was
 * ({@link #UPDATE_BEFORE}) and the row as it is now ({@link #UPDATE_AFTER}); a consumer that keeps the latest row
 * per key may ignore the first. Append-only streams hold {@link #INSERT}s only.
 *
 * <p>{@link #code()} is the value stored in state and checkpoints; it never changes for a constant.
 */
public enum RowKind {
    /** A new row: {@code +I}. */
    INSERT("+I", 0),
    /** The previous content of an updated row, retracted: {@code -U}. */
    UPDATE_BEFORE("-U", 1),
    /** The new content of an updated row: {@code +U}. */
    UPDATE_AFTER("+U", 2),
    /** A removed row, retracted: {@code -D}. */
    DELETE("-D", 3);

    private static final RowKind[] BY_CODE = {INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE};

    private final String shortString;
    private final byte code;

    RowKind(String shortString, int code) {
        this.shortString = shortString;
        this.code = (byte) code;
    }

    /** {@code +I}, {@code -U}, {@code +U} or {@code -D}, as {@link Row#toString()} prints it. */
    public String shortString() {
        return shortString;
    }

    /** The stable code of this kind, 0 to 3, as stored in state. */
    public byte code() {
        return code;
    }

    /** The kind of a stored {@link #code()}; fails naming the code if it is none. */
    public static RowKind ofCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("no row kind has code " + code + " (codes are 0 +I, 1 -U, 2 +U, 3 -D)");
        }
        return BY_CODE[code];
    }

    /** True for {@link #INSERT} and {@link #UPDATE_AFTER}: the row is in the table after this record. */
    public boolean isAddition() {
        return this == INSERT || this == UPDATE_AFTER;
    }

    /** True for {@link #UPDATE_BEFORE} and {@link #DELETE}: the row leaves the table with this record. */
    public boolean isRetraction() {
        return !isAddition();
    }
}
