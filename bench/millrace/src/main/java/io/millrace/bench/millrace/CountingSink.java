package io.millrace.bench.millrace;

import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import io.millrace.bench.workload.Probe;
import io.millrace.bench.workload.SinkTally;

/** Counts results into a {@link Probe} tally per subtask (and samples latency in latency runs); keeps nothing. */
final class CountingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<T> createWriter(SinkContext context) {
        SinkTally tally = Probe.newTally();
        return new SinkWriter<>() {
            @Override
            public void write(T value, long timestamp) {
                tally.onResult(timestamp);
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
