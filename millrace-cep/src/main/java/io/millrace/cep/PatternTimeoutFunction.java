package io.millrace.cep;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/** One record per partial match whose {@code within} passed, given what it matched and when its within ended. */
@FunctionalInterface
public interface PatternTimeoutFunction<IN, OUT> extends Serializable {
    OUT timeout(Map<String, List<IN>> partialMatch, long timeoutTimestamp) throws Exception;
}
