package io.millrace.cep;

import io.millrace.api.DataStream;
import io.millrace.api.KeyedStream;
import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A pattern applied to a keyed stream ({@link CEP#pattern}): choose the time mode and the late side output, then turn
 * matches into a stream with {@link #select}, {@link #flatSelect} or {@link #process}. Immutable.
 */
public final class PatternStream<K, E> {
    private final KeyedStream<K, E> input;
    private final Nfa<E> nfa;
    private final boolean processingTime;
    private final OutputTag<E> lateTag;

    PatternStream(KeyedStream<K, E> input, Nfa<E> nfa, boolean processingTime, OutputTag<E> lateTag) {
        this.input = input;
        this.nfa = nfa;
        this.processingTime = processingTime;
        this.lateTag = lateTag;
    }

    /**
     * Matches records on arrival, in arrival order, at the pipeline clock's time (within and timeouts in processing
     * time). The default is event time: records in timestamp order once the watermark has passed them.
     */
    public PatternStream<K, E> inProcessingTime() {
        return new PatternStream<>(input, nfa, true, lateTag);
    }

    /** Matches in event time (the default). */
    public PatternStream<K, E> inEventTime() {
        return new PatternStream<>(input, nfa, false, lateTag);
    }

    /** Records at or behind the watermark when they arrive go to {@code tag} (without it they are counted as dropped). */
    public PatternStream<K, E> sideOutputLateData(OutputTag<E> tag) {
        return new PatternStream<>(input, nfa, processingTime, Objects.requireNonNull(tag, "late data tag"));
    }

    /** The most general form: a function that sees each match, may emit any number of records and side outputs. */
    public <R> DataStream<R> process(PatternProcessFunction<E, R> function) {
        return input.transform(new CepSpec<>(nfa, Objects.requireNonNull(function, "function"), processingTime, lateTag));
    }

    /** One record per match. */
    public <R> DataStream<R> select(PatternSelectFunction<E, R> select) {
        return process(new Select<>(Objects.requireNonNull(select, "select function"), null, null));
    }

    /** One record per match; one record per timed-out partial match to the side output {@code timeoutTag}. */
    public <T, R> DataStream<R> select(OutputTag<T> timeoutTag, PatternTimeoutFunction<E, T> timeout, PatternSelectFunction<E, R> select) {
        return process(new Select<>(Objects.requireNonNull(select, "select function"), Objects.requireNonNull(timeoutTag, "timeout tag"),
                Objects.requireNonNull(timeout, "timeout function")));
    }

    /** Any number of records per match. */
    public <R> DataStream<R> flatSelect(PatternFlatSelectFunction<E, R> select) {
        return process(new FlatSelect<>(Objects.requireNonNull(select, "flat select function"), null, null));
    }

    /** Any number of records per match; one record per timed-out partial match to the side output {@code timeoutTag}. */
    public <T, R> DataStream<R> flatSelect(OutputTag<T> timeoutTag, PatternTimeoutFunction<E, T> timeout,
            PatternFlatSelectFunction<E, R> select) {
        return process(new FlatSelect<>(Objects.requireNonNull(select, "flat select function"), Objects.requireNonNull(timeoutTag, "timeout tag"),
                Objects.requireNonNull(timeout, "timeout function")));
    }

    private static final class Select<E, T, R> extends PatternProcessFunction<E, R> implements TimedOutPartialMatchHandler<E> {
        private final PatternSelectFunction<E, R> select;
        private final OutputTag<T> timeoutTag;
        private final PatternTimeoutFunction<E, T> timeout;

        Select(PatternSelectFunction<E, R> select, OutputTag<T> timeoutTag, PatternTimeoutFunction<E, T> timeout) {
            this.select = select;
            this.timeoutTag = timeoutTag;
            this.timeout = timeout;
        }

        @Override
        public void processMatch(Map<String, List<E>> match, Context context, Collector<R> out) throws Exception {
            out.collect(select.select(match));
        }

        @Override
        public void processTimedOutMatch(Map<String, List<E>> partialMatch, Context context) throws Exception {
            if (timeoutTag != null) {
                context.output(timeoutTag, timeout.timeout(partialMatch, context.timestamp()));
            }
        }
    }

    private static final class FlatSelect<E, T, R> extends PatternProcessFunction<E, R> implements TimedOutPartialMatchHandler<E> {
        private final PatternFlatSelectFunction<E, R> select;
        private final OutputTag<T> timeoutTag;
        private final PatternTimeoutFunction<E, T> timeout;

        FlatSelect(PatternFlatSelectFunction<E, R> select, OutputTag<T> timeoutTag, PatternTimeoutFunction<E, T> timeout) {
            this.select = select;
            this.timeoutTag = timeoutTag;
            this.timeout = timeout;
        }

        @Override
        public void processMatch(Map<String, List<E>> match, Context context, Collector<R> out) throws Exception {
            select.flatSelect(match, out);
        }

        @Override
        public void processTimedOutMatch(Map<String, List<E>> partialMatch, Context context) throws Exception {
            if (timeoutTag != null) {
                context.output(timeoutTag, timeout.timeout(partialMatch, context.timestamp()));
            }
        }
    }
}
