package io.millrace.api.table;

import io.millrace.api.DataStream;
import io.millrace.api.KeyedStream;
import io.millrace.api.OutputTag;
import io.millrace.api.functions.JoinFunction;
import io.millrace.api.row.Row;
import java.time.Duration;
import java.util.Objects;

/**
 * A regular join of two changelog streams: the continuously maintained join of the two tables the changelogs
 * describe, emitted as a changelog itself, like a Flink SQL join without time bounds. Both inputs are keyed by the
 * join key:
 * <pre>{@code
 * DataStream<Row> joined = ChangelogJoin.of(orders.keyBy(r -> r.getString("machine")),
 *                 machines.keyBy(r -> r.getString("machine")))
 *         .leftOuter((order, machine) -> Row.of(OUT, order.getString("id"), machine == null ? null : machine.getString("site")));
 * }</pre>
 *
 * <p><b>Input.</b> Each side is a multiset of rows: {@code +I} and {@code +U} add a row, {@code -U} and {@code -D}
 * remove one equal row (in all fields). A row that changes its join key is removed from one key and added to the
 * other. A {@code -U} or {@code -D} of a row the side does not hold goes to {@link #REJECTED} with its reason and
 * changes nothing.
 *
 * <p><b>Output</b>, per join key in the order of its input: {@code +I} of each new joined row and {@code -D} of each
 * joined row that no longer holds, so applying the output to an empty table gives the join of the two input tables
 * at every step. The join function builds the output row and is called with {@code null} for the missing side of
 * a padded row of an outer join; the join sets the row's kind. An outer join emits a padded row while its side has
 * no match and retracts it ({@code -D}) before the first match is emitted, and emits it again when the last match
 * goes.
 *
 * <p><b>State retention.</b> Each side keeps its rows per key in keyed state, without bound unless a retention is
 * set with {@link #stateRetention}: a row of that side not added or retracted again for that long (processing time) is removed. A
 * retraction of a removed row is then rejected and a later match of it is not found: retention trades exactness for
 * bounded state, for keys that go idle.
 */
public final class ChangelogJoin<K> {
    /** Retractions of rows a side does not hold, with the reason. */
    public static final OutputTag<RejectedChange> REJECTED = new OutputTag<>("changelog-join-rejected");

    /** Which unmatched rows appear in the result, padded with null on the other side. */
    enum Kind {
        INNER(false, false), LEFT(true, false), RIGHT(false, true), FULL(true, true);

        final boolean keepLeft;
        final boolean keepRight;

        Kind(boolean keepLeft, boolean keepRight) {
            this.keepLeft = keepLeft;
            this.keepRight = keepRight;
        }
    }

    private final KeyedStream<K, Row> left;
    private final KeyedStream<K, Row> right;
    private final Duration leftRetention;
    private final Duration rightRetention;

    private ChangelogJoin(KeyedStream<K, Row> left, KeyedStream<K, Row> right, Duration leftRetention, Duration rightRetention) {
        this.left = left;
        this.right = right;
        this.leftRetention = leftRetention;
        this.rightRetention = rightRetention;
    }

    /** Joins the changelogs {@code left} and {@code right}, keyed by the join key. */
    public static <K> ChangelogJoin<K> of(KeyedStream<K, Row> left, KeyedStream<K, Row> right) {
        return new ChangelogJoin<>(Objects.requireNonNull(left, "left"), Objects.requireNonNull(right, "right"), null, null);
    }

    /**
     * Removes a row of the left side whose count was not changed (by an addition or retraction of an equal row) for
     * {@code left}, and one of the right side after {@code right}; null keeps that side's rows until they are
     * retracted. Each must be at least a millisecond.
     */
    public ChangelogJoin<K> stateRetention(Duration left, Duration right) {
        return new ChangelogJoin<>(this.left, this.right, positive(left, "left"), positive(right, "right"));
    }

    /** Joined rows of matching left and right rows. */
    public DataStream<Row> inner(JoinFunction<Row, Row, Row> function) {
        return join(function, Kind.INNER);
    }

    /** As {@link #inner}, plus each left row without a match, with {@code right} null. */
    public DataStream<Row> leftOuter(JoinFunction<Row, Row, Row> function) {
        return join(function, Kind.LEFT);
    }

    /** As {@link #inner}, plus each right row without a match, with {@code left} null. */
    public DataStream<Row> rightOuter(JoinFunction<Row, Row, Row> function) {
        return join(function, Kind.RIGHT);
    }

    /** As {@link #inner}, plus the rows of either side without a match, padded with null. */
    public DataStream<Row> fullOuter(JoinFunction<Row, Row, Row> function) {
        return join(function, Kind.FULL);
    }

    private DataStream<Row> join(JoinFunction<Row, Row, Row> function, Kind kind) {
        Objects.requireNonNull(function, "function");
        return left.connect(right).process(new ChangelogJoinProcess(function, kind, millis(leftRetention), millis(rightRetention)))
                .name(kind.name().toLowerCase(java.util.Locale.ROOT) + "ChangelogJoin");
    }

    private static long millis(Duration retention) {
        return retention == null ? 0 : retention.toMillis();
    }

    private static Duration positive(Duration retention, String side) {
        if (retention != null && (retention.isNegative() || retention.toMillis() <= 0)) {
            throw new IllegalArgumentException("changelog join: the " + side + " state retention must be at least 1 ms, was " + retention);
        }
        return retention;
    }
}
