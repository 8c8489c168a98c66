package io.millrace.cep;

import java.util.List;
import java.util.Map;

/**
 * Implemented by a {@link PatternProcessFunction} that wants the partial matches whose {@code within} passed before
 * they became matches: "a spike not followed by a pressure drop within 30 s". The map holds what was matched so far;
 * the context's timestamp is the moment the {@code within} ended (first event's time + within). Emit with
 * {@link PatternProcessFunction.Context#output} to a side output.
 */
public interface TimedOutPartialMatchHandler<IN> {
    void processTimedOutMatch(Map<String, List<IN>> partialMatch, PatternProcessFunction.Context context) throws Exception;
}
