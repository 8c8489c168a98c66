package io.millrace.cep;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.RuntimeContext;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * Turns each match into output records. A match is a map from variable name to the events it took, in time order
 * and in the order of the pattern's variables; variables that took no event (optional ones) are absent. Called on
 * the operator's task thread with the match's key current; records it emits carry the timestamp of the match's
 * last event. Implement {@link TimedOutPartialMatchHandler} as well to hear of partial matches whose
 * {@code within} passed.
 */
public abstract class PatternProcessFunction<IN, OUT> implements Serializable {
    /** Called once, before the first match, on the task thread. Default: nothing. */
    public void open(RuntimeContext context) throws Exception {}

    public abstract void processMatch(Map<String, List<IN>> match, Context context, Collector<OUT> out) throws Exception;

    /** Called once, when the operator closes. Default: nothing. */
    public void close() throws Exception {}

    /** What the function sees besides the match. Valid only during the call. */
    public interface Context {
        /** The match's timestamp: its last event's (or, for a timed-out one, when its within ended). */
        long timestamp();

        /** The key of the match. */
        Object currentKey();

        /** Emits to a side output. */
        <X> void output(OutputTag<X> tag, X value);
    }
}
