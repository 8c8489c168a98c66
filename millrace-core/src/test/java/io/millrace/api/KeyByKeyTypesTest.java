package io.millrace.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.sink.CollectSink;
import java.util.List;
import org.junit.jupiter.api.Test;

/** keyBy refuses key types without a stable key hash: at keyBy when the selector declares the type, else at the first key. */
class KeyByKeyTypesTest {
    record Reading(String machine, int[] slots, long value) {}

    static final class Machine {
        final String id;

        Machine(String id) {
            this.id = id;
        }
    }

    static final class ByMachine implements KeySelector<Reading, Machine> {
        @Override
        public Machine getKey(Reading r) {
            return new Machine(r.machine());
        }
    }

    @Test
    void arrayKeyOfALambda_isRefusedAtKeyBy() {
        DataStream<Reading> readings = Pipeline.create().fromElements(new Reading("m03", new int[] {1}, 5));
        assertThatThrownBy(() -> readings.keyBy(Reading::slots)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the key selector given to keyBy returns the array type int[], which cannot be a key: arrays are equal only to"
                        + " themselves and hash by identity; use a List (List.of(...)) or a record of the elements");
    }

    @Test
    void classWithoutItsOwnHashOfASelectorClass_isRefusedAtKeyBy() {
        DataStream<Reading> readings = Pipeline.create().fromElements(new Reading("m03", new int[] {1}, 5));
        assertThatThrownBy(() -> readings.keyBy(new ByMachine()))
                .hasMessageContaining("returns " + Machine.class.getName() + ", which cannot be a key")
                .hasMessageContaining("give Machine equals and hashCode over its values");
    }

    @Test
    void supportedKeys_passKeyBy() {
        DataStream<Reading> readings = Pipeline.create().fromElements(new Reading("m03", new int[] {1}, 5));
        assertThat(readings.keyBy(Reading::machine)).isNotNull();
        assertThat(readings.keyBy(r -> List.of(r.machine(), r.value()))).isNotNull();
    }

    @Test
    void keyTypeUnknownAtKeyBy_isRefusedAtTheFirstKey_namingTheType() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Long> out = new CollectSink<>();
        pipeline.fromElements(new Reading("m03", new int[] {1}, 5))
                .keyBy(anyKey(r -> new Machine(r.machine())))
                .reduce((a, b) -> a)
                .map(Reading::value)
                .sinkTo(out);
        assertThatThrownBy(() -> pipeline.execute("machine keys"))
                .hasStackTraceContaining(Machine.class.getName() + " cannot be a key: it keeps Object's equals and hashCode");
        assertThat(out.results()).isEmpty();
    }

    /** A selector whose key type is erased to Object, so keyBy cannot see it. */
    private static <T> KeySelector<T, Object> anyKey(KeySelector<T, ?> selector) {
        return selector::getKey;
    }
}
