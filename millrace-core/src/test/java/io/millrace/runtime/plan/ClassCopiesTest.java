package io.millrace.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FilterFunction;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.StreamOperator;
import io.millrace.runtime.operator.ClassCopies;
import io.millrace.runtime.operator.MapOperator;
import io.millrace.testing.OneInputOperatorHarness;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Map and filter operators, and the links of a chain, run as copies of their classes, one per function class. */
class ClassCopiesTest {
    static final class Upper implements MapFunction<String, String> {
        @Override
        public String map(String s) {
            return s.toUpperCase(Locale.ROOT);
        }
    }

    static final class Twice implements MapFunction<String, String> {
        @Override
        public String map(String s) {
            return s + s;
        }
    }

    private static StreamOperator<?> lower(Object spec) {
        return new OperatorLowering().create(new LogicalNode(0, (OperatorSpec) spec), 0, 1);
    }

    @Test
    void mapOperatorsOfTwoFunctionClasses_runAsTwoCopiesOfMapOperator_andAThirdOfTheFirstClassReusesItsCopy() {
        Class<?> upper = lower(new Specs.MapSpec<>(new Upper())).getClass();
        Class<?> twice = lower(new Specs.MapSpec<>(new Twice())).getClass();
        assertThat(upper).isNotEqualTo(MapOperator.class).isNotEqualTo(twice);
        assertThat(upper.isHidden()).isTrue();
        assertThat(upper.getName()).startsWith(MapOperator.class.getName() + "/");
        assertThat(lower(new Specs.MapSpec<>(new Upper())).getClass()).as("a later job, or a restart").isSameAs(upper);
        FilterFunction<String> nonEmpty = s -> !s.isEmpty();
        assertThat(lower(new Specs.FilterSpec<>(nonEmpty)).getClass().getName()).startsWith("io.millrace.runtime.operator.FilterOperator/");
        FlatMapFunction<String, String> split = (s, out) -> out.collect(s);
        assertThat(lower(new Specs.FlatMapSpec<>(split)).getClass().getName()).startsWith("io.millrace.runtime.operator.FlatMapOperator/");
        assertThat(lower(new Specs.SinkSpec<>(new CollectSink<String>())).getClass().getName())
                .startsWith("io.millrace.runtime.operator.SinkOperator/");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCopy_doesWhatTheClassDoes() throws Exception {
        OneInputOperator<String, String> copy = (OneInputOperator<String, String>) lower(new Specs.MapSpec<>(new Twice()));
        try (var h = OneInputOperatorHarness.of(copy).open()) {
            h.processElement("ab", 7);
            assertThat(h.output()).extracting(e -> e.value() + "@" + e.timestamp()).containsExactly("abab@7");
        }
    }

    @Test
    void aClassWithoutAClassFile_isUsedItself() {
        Class<?> hidden = lower(new Specs.MapSpec<>(new Upper())).getClass(); // no class file to read for a hidden class
        Object instance = ClassCopies.newInstance(MethodHandles.lookup(), hidden, StreamOperator.class, String.class,
                new Class<?>[] {MapFunction.class}, new Twice());
        assertThat(instance.getClass()).isSameAs(hidden);
    }

    @Test
    void aChainOfMapsAndFilters_overCopies_givesTheRecordsOfTheFunctions() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> sink = new CollectSink<>();
        p.fromSource(GeneratorSource.builder(i -> "r" + i).count(1_000).build(), WatermarkStrategy.noWatermarks(), "numbers")
                .map(new Upper()).filter(s -> s.endsWith("7")).map(new Twice()).map(new Upper()).filter(s -> s.length() > 4)
                .flatMap((String s, Collector<String> out) -> {
                    out.collect(s);
                    out.collect(s.toLowerCase(Locale.ROOT));
                })
                .sinkTo(sink);
        p.execute("copies");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            String s = ("r" + i).toUpperCase(Locale.ROOT);
            if (s.endsWith("7") && (s + s).length() > 4) {
                expected.add(s + s);
                expected.add((s + s).toLowerCase(Locale.ROOT));
            }
        }
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Records written, and flushes while fewer than all 20 had been written, by the writers of this JVM. */
    static final AtomicInteger WRITTEN = new AtomicInteger();
    static final AtomicInteger EARLY_FLUSHES = new AtomicInteger();

    static final class CountsEarlyFlushes implements Sink<Long> {
        @Override
        public SinkWriter<Long> createWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Long value, long timestamp) {
                    WRITTEN.incrementAndGet();
                }

                @Override
                public void flush(boolean endOfInput) {
                    if (WRITTEN.get() < 20) {
                        EARLY_FLUSHES.incrementAndGet();
                    }
                }

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void aSinkRunningAsACopy_isFlushedWheneverItsTaskRunsDry() {
        assertThat(lower(new Specs.SinkSpec<>(new CountsEarlyFlushes())).getClass()).matches(Class::isHidden);
        WRITTEN.set(0);
        EARLY_FLUSHES.set(0);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        // no watermarks, so only the task running dry between two paced records can flush before the last one
        p.fromSource(GeneratorSource.<Long>builder(i -> i).count(20).ratePerSecond(200).build(), WatermarkStrategy.noWatermarks(), "slow")
                .sinkTo(new CountsEarlyFlushes());
        p.execute("idle flushes");
        assertThat(WRITTEN.get()).isEqualTo(20);
        assertThat(EARLY_FLUSHES.get()).as("flushes while the task waited for the next record").isPositive();
    }
}
