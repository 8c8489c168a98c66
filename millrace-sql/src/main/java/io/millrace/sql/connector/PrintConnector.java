package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.PrintSink;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;

/**
 * {@code 'connector' = 'print'}: writes every row to standard output as {@code <prefix>+I[v1, v2]}, changes with their
 * kind ({@code +U[...]}, {@code -D[...]}); option {@code print-identifier}.
 */
final class PrintConnector implements TableConnector {
    @Override
    public String name() {
        return "print";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        String id = options.get("print-identifier");
        String prefix = id == null ? "" : id + "> ";
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                return null;
            }

            @Override
            public Sink<Row> sink() {
                return new PrintSink<>(prefix);
            }

            @Override
            public String describe() {
                return "print" + (id == null ? "" : ", print-identifier=" + id);
            }

            @Override
            public boolean acceptsChanges() {
                return true;
            }
        };
    }
}
