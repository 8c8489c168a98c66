package io.millrace.bench.millrace;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.Sink;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;

/**
 * The state-heavy workload of the checkpoint benchmarks: an endless sequence of indices, index {@code i} counted
 * under key {@code i % keys} in a value of {@code padBytes} bytes plus the count. After the first {@code keys}
 * events every key holds state and the state stops growing. Every {@code sampleEvery}-th index emits a
 * {@link Sample} with the key's count, which must equal {@link Sample#expected}: that is how a restart shows that
 * state and source positions were restored together.
 */
final class KeyedCounts {
    /** A key's state: its count and a padding array of its own. */
    record Tally(long count, byte[] pad) {}

    /** The count of key {@code index % keys} after index {@code index}. */
    record Sample(long index, long count, long keys) {
        /** The count exactly-once processing gives: how many indices up to {@code index} share its key. */
        long expected() {
            return index / keys + 1;
        }

        boolean correct() {
            return count == expected();
        }
    }

    /** Wall time (epoch millis) of the first record the counting function saw in this JVM, or 0. */
    static volatile long firstRecordMillis;

    private KeyedCounts() {}

    /**
     * The pipeline: generator (unbounded; {@code ratePerSecond} 0 = as fast as it goes) → keyBy → counts → sink.
     * The caller sets checkpointing on {@code config}.
     */
    static Pipeline build(PipelineConfig config, long keys, int padBytes, long sampleEvery, double ratePerSecond, Sink<Sample> sink) {
        Pipeline pipeline = Pipeline.create(config);
        GeneratorSource.Builder<Long> source = GeneratorSource.<Long>builder(i -> i).unbounded();
        if (ratePerSecond > 0) {
            source.ratePerSecond(ratePerSecond);
        }
        pipeline.fromSource(source.build(), WatermarkStrategy.<Long>noWatermarks(), "indices").uid("indices")
                .keyBy(i -> i % keys)
                .process(new Count(keys, padBytes, sampleEvery)).name("counts").uid("counts")
                .sinkTo(sink).name("samples");
        return pipeline;
    }

    /** Counts per key; runs on the keyed operator's task thread. */
    static final class Count extends KeyedProcessFunction<Long, Long, Sample> {
        private static final long serialVersionUID = 1L;
        private final long keys;
        private final int padBytes;
        private final long sampleEvery;
        private transient ValueState<Tally> tally;

        Count(long keys, int padBytes, long sampleEvery) {
            this.keys = keys;
            this.padBytes = padBytes;
            this.sampleEvery = sampleEvery;
        }

        @Override
        public void open(RuntimeContext context) {
            tally = context.state().getState(new ValueStateDescriptor<>("tally"));
        }

        @Override
        public void processElement(Long index, Context<Long> ctx, Collector<Sample> out) {
            if (firstRecordMillis == 0) {
                firstRecordMillis = System.currentTimeMillis();
            }
            Tally t = tally.value();
            Tally next = t == null ? new Tally(1, new byte[padBytes]) : new Tally(t.count + 1, t.pad);
            tally.update(next);
            if (index % sampleEvery == 0) {
                out.collect(new Sample(index, next.count, keys));
            }
        }
    }
}
