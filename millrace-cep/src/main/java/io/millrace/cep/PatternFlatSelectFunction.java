package io.millrace.cep;

import io.millrace.api.functions.Collector;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/** Any number of output records per match. */
@FunctionalInterface
public interface PatternFlatSelectFunction<IN, OUT> extends Serializable {
    void flatSelect(Map<String, List<IN>> match, Collector<OUT> out) throws Exception;
}
