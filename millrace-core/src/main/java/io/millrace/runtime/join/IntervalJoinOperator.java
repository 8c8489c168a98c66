package io.millrace.runtime.join;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.plan.IntervalJoinSpec;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.KeyedTwoInput;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.TwoInputOperator;
import io.millrace.operator.UserFunctionException;
import java.util.ArrayList;
import java.util.Map;

/**
 * The event-time interval join ({@link IntervalJoinSpec}): a left row at {@code t} and a right row of the same key
 * at {@code u} match when {@code t + lower <= u <= t + upper}. Each arriving row that is not late is joined with
 * the other side's buffered rows of its key in its interval, then buffered itself ({@link BufferedSide}) until the
 * watermark passes the last time a row of the other side could match it: a left row until {@code t + upper}, a
 * right row until {@code u - lower}. So every pair of rows that are not late is emitted exactly once, when its
 * second row arrives, whatever the order of arrival.
 *
 * <p>A row is late when its timestamp is at or below the watermark this operator has processed: it goes to its
 * side's late output (counted in {@code lateRecordsDiverted}), or without one is dropped and counted in
 * {@code lateRecordsDropped}. Results carry the later of the pair's timestamps, which is above the watermark (the
 * arriving row is not late), so they are never late downstream.
 *
 * <p>Written on the operator SPI ({@code io.millrace.operator}) alone: keyed state by descriptor, event-time timers
 * and outputs; the task thread calls every method.
 */
public final class IntervalJoinOperator<A, B, OUT> extends AbstractStreamOperator<OUT>
        implements TwoInputOperator<A, B, OUT>, KeyedTwoInput<A, B> {
    private final ProcessJoinFunction<A, B, OUT> function;
    private final long lower;
    private final long upper;
    private final OutputTag<A> leftLate;
    private final OutputTag<B> rightLate;
    private final PairContext pair = new PairContext();
    private final PairCollector collector = new PairCollector();
    private KeySelector<Object, Object> leftKey;
    private KeySelector<Object, Object> rightKey;
    private BufferedSide<A> lefts;
    private BufferedSide<B> rights;
    private boolean closed;

    public IntervalJoinOperator(IntervalJoinSpec<A, B, OUT> spec) {
        this.function = spec.function();
        this.lower = spec.lower();
        this.upper = spec.upper();
        this.leftLate = spec.leftLate();
        this.rightLate = spec.rightLate();
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        leftKey = context.keySelector(0);
        rightKey = context.keySelector(1);
        if (!context.keyed() || leftKey == null || rightKey == null) {
            throw new IllegalStateException("interval join '" + context.operatorName() + "' needs both inputs keyed (keyBy on both streams)");
        }
        lefts = new BufferedSide<>(context, "left", upper);
        rights = new BufferedSide<>(context, "right", Bounds.negate(lower));
        function.open(context.runtimeContext());
    }

    @Override
    public void processRecord1(A value, long timestamp) throws Exception {
        Object key;
        try {
            key = leftKey.getKey(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        context.setCurrentKey(key);
        onLeft(value, timestamp);
    }

    @Override
    public void processRecord2(B value, long timestamp) throws Exception {
        Object key;
        try {
            key = rightKey.getKey(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        context.setCurrentKey(key);
        onRight(value, timestamp);
    }

    @Override
    public void processKeyedRecord1(Object key, int keyGroup, A value, long timestamp) throws Exception {
        context.setCurrentKey(key, keyGroup);
        onLeft(value, timestamp);
    }

    @Override
    public void processKeyedRecord2(Object key, int keyGroup, B value, long timestamp) throws Exception {
        context.setCurrentKey(key, keyGroup);
        onRight(value, timestamp);
    }

    private void onLeft(A value, long timestamp) throws Exception {
        checkTimestamp(value, timestamp, "left");
        if (timestamp <= currentWatermark) {
            late(leftLate, value, timestamp);
            return;
        }
        for (Map.Entry<Long, ArrayList<B>> match : rights.between(Bounds.plus(timestamp, lower), Bounds.plus(timestamp, upper))) {
            long rightTimestamp = match.getKey();
            ArrayList<B> rows = match.getValue();
            for (int j = 0; j < rows.size(); j++) {
                join(value, timestamp, rows.get(j), rightTimestamp, value);
            }
        }
        lefts.add(value, timestamp, currentWatermark);
    }

    private void onRight(B value, long timestamp) throws Exception {
        checkTimestamp(value, timestamp, "right");
        if (timestamp <= currentWatermark) {
            late(rightLate, value, timestamp);
            return;
        }
        for (Map.Entry<Long, ArrayList<A>> match : lefts.between(Bounds.plus(timestamp, Bounds.negate(upper)),
                Bounds.plus(timestamp, Bounds.negate(lower)))) {
            long leftTimestamp = match.getKey();
            ArrayList<A> rows = match.getValue();
            for (int j = 0; j < rows.size(); j++) {
                join(rows.get(j), leftTimestamp, value, timestamp, value);
            }
        }
        rights.add(value, timestamp, currentWatermark);
    }

    private void join(A left, long leftTimestamp, B right, long rightTimestamp, Object arriving) {
        pair.leftTimestamp = leftTimestamp;
        pair.rightTimestamp = rightTimestamp;
        pair.timestamp = Math.max(leftTimestamp, rightTimestamp);
        try {
            function.processElement(left, right, pair, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, arriving, e);
        }
    }

    private void checkTimestamp(Object value, long timestamp, String side) {
        if (timestamp == Long.MIN_VALUE) {
            throw new IllegalStateException("interval join '" + context.operatorName() + "': a " + side + " row has no event timestamp ("
                    + describe(value) + "); give its source a WatermarkStrategy with timestamps, or call"
                    + " assignTimestampsAndWatermarks before the join");
        }
    }

    private static String describe(Object value) {
        String s = String.valueOf(value);
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    private <T> void late(OutputTag<T> tag, T value, long timestamp) {
        if (tag != null) {
            output.emit(tag, value, timestamp);
            metrics.lateRecordsDiverted++;
        } else {
            metrics.lateRecordsDropped++;
        }
    }

    /** Fires the cleanup timers up to {@code watermark}, then notes and forwards it. */
    @Override
    public void processWatermark(long watermark) throws Exception {
        context.fireEventTimeTimers(watermark);
        super.processWatermark(watermark);
    }

    /** The earliest cleanup timer: below it a watermark only raises the lateness threshold, which is noted in passing. */
    @Override
    public long watermarkToAct() {
        return lefts == null ? Long.MIN_VALUE : context.nextEventTimeTimer();
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            function.close();
        }
    }

    /** The pair being joined; reused. */
    private final class PairContext implements ProcessJoinFunction.Context {
        long leftTimestamp;
        long rightTimestamp;
        long timestamp;

        @Override
        public long leftTimestamp() {
            return leftTimestamp;
        }

        @Override
        public long rightTimestamp() {
            return rightTimestamp;
        }

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public long currentWatermark() {
            return currentWatermark;
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.emit(tag, value, timestamp);
        }
    }

    /** Emits with the pair's timestamp; reused. */
    private final class PairCollector implements Collector<OUT> {
        @Override
        public void collect(OUT value) {
            output.emit(value, pair.timestamp);
        }
    }
}
