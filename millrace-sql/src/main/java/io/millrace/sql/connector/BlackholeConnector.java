package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;

/** {@code 'connector' = 'blackhole'}: accepts every row and keeps none (for benchmarks and tests); no options. */
final class BlackholeConnector implements TableConnector {
    @Override
    public String name() {
        return "blackhole";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                return null;
            }

            @Override
            public Sink<Row> sink() {
                return new BlackholeSink();
            }

            @Override
            public String describe() {
                return "blackhole";
            }
        };
    }

    static final class BlackholeSink implements Sink<Row> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<Row> createWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Row value, long timestamp) {}

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
