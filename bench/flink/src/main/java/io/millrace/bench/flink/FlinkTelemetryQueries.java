package io.millrace.bench.flink;

import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import io.millrace.bench.workload.Rows;
import java.time.Duration;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** The factory-telemetry queries on Flink's DataStream API: the same plans as the Millrace versions. */
final class FlinkTelemetryQueries {
    private FlinkTelemetryQueries() {}

    static DataStream<?> build(Query q, DataStream<Reading> readings) {
        return switch (q) {
            case SLIDING -> readings.keyBy(Reading::key, Types.LONG)
                    .window(SlidingEventTimeWindows.of(Duration.ofMillis(Query.SLIDING_SIZE), Duration.ofMillis(Query.SLIDING_SLIDE)))
                    .aggregate(new Average(), new SensorAverageOf()).name("sliding-average").uid("sliding-average");
            case SESSION -> readings.keyBy(Reading::key, Types.LONG)
                    .window(EventTimeSessionWindows.withGap(Duration.ofMillis(Query.SESSION_GAP)))
                    .aggregate(new Average(), new RunCycleOf()).name("run-cycles").uid("run-cycles");
            case TTL -> readings.keyBy(Reading::key, Types.LONG)
                    .process(new ShortLivedCount()).name("short-lived-counts").uid("short-lived-counts");
            default -> throw new IllegalArgumentException(q.id() + " is not a telemetry query");
        };
    }

    static final class Average implements AggregateFunction<Reading, Rows.Mean, Rows.Mean> {
        private static final long serialVersionUID = 1L;

        @Override
        public Rows.Mean createAccumulator() {
            return new Rows.Mean();
        }

        @Override
        public Rows.Mean add(Reading r, Rows.Mean acc) {
            acc.sum += r.value();
            acc.n++;
            return acc;
        }

        @Override
        public Rows.Mean getResult(Rows.Mean acc) {
            return acc;
        }

        @Override
        public Rows.Mean merge(Rows.Mean a, Rows.Mean b) {
            a.sum += b.sum;
            a.n += b.n;
            return a;
        }
    }

    static final class SensorAverageOf extends ProcessWindowFunction<Rows.Mean, Rows.SensorAverage, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long sensor, Context ctx, Iterable<Rows.Mean> means, Collector<Rows.SensorAverage> out) {
            Rows.Mean m = means.iterator().next();
            out.collect(new Rows.SensorAverage(sensor, ctx.window().getEnd(), m.sum / m.n));
        }
    }

    static final class RunCycleOf extends ProcessWindowFunction<Rows.Mean, Rows.RunCycle, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long machine, Context ctx, Iterable<Rows.Mean> means, Collector<Rows.RunCycle> out) {
            out.collect(new Rows.RunCycle(machine, ctx.window().getStart(), ctx.window().getEnd(), means.iterator().next().n));
        }
    }

    /** Counts each key's events in state that expires 5 s (processing time) after the last write. */
    static final class ShortLivedCount extends KeyedProcessFunction<Long, Reading, Rows.KeyReached> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext openContext) {
            ValueStateDescriptor<Long> d = new ValueStateDescriptor<>("count", Long.class);
            d.enableTimeToLive(StateTtlConfig.newBuilder(Duration.ofMillis(Query.TTL_MS)).build());
            count = getRuntimeContext().getState(d);
        }

        @Override
        public void processElement(Reading r, Context ctx, Collector<Rows.KeyReached> out) throws Exception {
            Long c = count.value();
            long n = c == null ? 1 : c + 1;
            count.update(n);
            if (n == Query.TTL_THRESHOLD) {
                out.collect(new Rows.KeyReached(r.key(), n));
            }
        }
    }
}
