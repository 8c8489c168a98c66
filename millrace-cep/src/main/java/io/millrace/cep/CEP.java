package io.millrace.cep;

import io.millrace.api.KeyedStream;
import java.util.Objects;

/**
 * The entry point: applies a {@link Pattern} to a keyed stream. The pattern is compiled here, so a pattern the engine
 * cannot run (a negation at its end, a skip strategy naming an unknown variable) fails at this call, naming the problem.
 *
 * <pre>
 *   DataStream&lt;Alert&gt; alerts = CEP.pattern(readings.keyBy(SensorReading::machineId), pattern)
 *           .select(match -&gt; new Alert(...));
 * </pre>
 */
public final class CEP {
    private CEP() {}

    public static <K, E> PatternStream<K, E> pattern(KeyedStream<K, E> input, Pattern<E> pattern) {
        Objects.requireNonNull(input, "input");
        return new PatternStream<>(input, NfaCompiler.compile(Objects.requireNonNull(pattern, "pattern")), false, null);
    }
}
