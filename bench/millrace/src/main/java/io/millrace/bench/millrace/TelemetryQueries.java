package io.millrace.bench.millrace;

import io.millrace.api.DataStream;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.PackedAccumulator;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import io.millrace.bench.workload.Rows;
import java.time.Duration;

/** The factory-telemetry queries on Millrace's DataStream API. */
final class TelemetryQueries {
    private TelemetryQueries() {}

    static DataStream<?> build(Query q, DataStream<Reading> readings) {
        return switch (q) {
            case SLIDING -> readings.keyBy(Reading::key)
                    .window(Windows.sliding(Duration.ofMillis(Query.SLIDING_SIZE), Duration.ofMillis(Query.SLIDING_SLIDE)))
                    .aggregate(new Average(), new SensorAverageOf()).name("sliding-average").uid("sliding-average");
            case SESSION -> readings.keyBy(Reading::key)
                    .window(Windows.session(Duration.ofMillis(Query.SESSION_GAP)))
                    .aggregate(new Average(), new RunCycleOf()).name("run-cycles").uid("run-cycles");
            case TTL -> readings.keyBy(Reading::key)
                    .process(new ShortLivedCount()).name("short-lived-counts").uid("short-lived-counts");
            default -> throw new IllegalArgumentException(q.id() + " is not a telemetry query");
        };
    }

    /**
     * A sum and a count, updated in place: {@link Rows.Mean}'s fields, packed into two longs so that sliding
     * windows keep them as numbers (see {@link PackedAccumulator}).
     */
    static final class Mean implements PackedAccumulator, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        double sum;
        long n;

        @Override
        public int packedLongs() {
            return 2;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = Double.doubleToRawLongBits(sum);
            slots[offset + 1] = n;
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            sum = Double.longBitsToDouble(slots[offset]);
            n = slots[offset + 1];
        }
    }

    /** Sum and count in place; the result is the accumulator itself (read-only downstream). */
    static final class Average implements AggregateFunction<Reading, Mean, Mean> {
        private static final long serialVersionUID = 1L;

        @Override
        public Mean createAccumulator() {
            return new Mean();
        }

        @Override
        public Mean add(Reading r, Mean acc) {
            acc.sum += r.value();
            acc.n++;
            return acc;
        }

        @Override
        public Mean getResult(Mean acc) {
            return acc;
        }

        @Override
        public Mean merge(Mean a, Mean b) {
            a.sum += b.sum;
            a.n += b.n;
            return a;
        }
    }

    static final class SensorAverageOf extends ProcessWindowFunction<Mean, Rows.SensorAverage, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long sensor, Context<TimeWindow> ctx, Iterable<Mean> means, Collector<Rows.SensorAverage> out) {
            Mean m = means.iterator().next();
            out.collect(new Rows.SensorAverage(sensor, ctx.window().end(), m.sum / m.n));
        }
    }

    static final class RunCycleOf extends ProcessWindowFunction<Mean, Rows.RunCycle, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long machine, Context<TimeWindow> ctx, Iterable<Mean> means, Collector<Rows.RunCycle> out) {
            out.collect(new Rows.RunCycle(machine, ctx.window().start(), ctx.window().end(), means.iterator().next().n));
        }
    }

    /** Counts each key's events in state that expires 5 s (processing time) after the last write. */
    static final class ShortLivedCount extends KeyedProcessFunction<Long, Reading, Rows.KeyReached> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            ValueStateDescriptor<Long> d = new ValueStateDescriptor<>("count");
            d.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(Query.TTL_MS)));
            count = context.state().getState(d);
        }

        @Override
        public void processElement(Reading r, Context<Long> ctx, Collector<Rows.KeyReached> out) {
            Long c = count.value();
            long n = c == null ? 1 : c + 1;
            count.update(n);
            if (n == Query.TTL_THRESHOLD) {
                out.collect(new Rows.KeyReached(r.key(), n));
            }
        }
    }
}
