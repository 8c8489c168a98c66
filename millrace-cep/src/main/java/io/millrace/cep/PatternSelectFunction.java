package io.millrace.cep;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/** One output record per match. */
@FunctionalInterface
public interface PatternSelectFunction<IN, OUT> extends Serializable {
    OUT select(Map<String, List<IN>> match) throws Exception;
}
