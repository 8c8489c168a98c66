package io.millrace.bench.flink;

import io.millrace.bench.workload.Probe;
import io.millrace.bench.workload.SinkTally;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/** Counts results into a {@link Probe} tally per subtask (and samples latency in latency runs); keeps nothing. */
final class CountingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        SinkTally tally = Probe.newTally();
        return new SinkWriter<>() {
            @Override
            public void write(T value, Context ctx) {
                Long ts = ctx.timestamp();
                tally.onResult(ts == null ? Long.MIN_VALUE : ts);
            }

            @Override
            public void flush(boolean endOfInput) {
                tally.onFlush();
            }

            @Override
            public void close() {}
        };
    }
}
