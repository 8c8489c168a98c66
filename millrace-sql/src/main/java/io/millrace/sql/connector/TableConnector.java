package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;

/**
 * A connector a table names with {@code 'connector' = '<name>'}. {@link #open} checks the table's options once, when
 * the table is created, and returns what reads or writes it. Implementations are stateless.
 */
public interface TableConnector {
    /** The value of the {@code connector} option that selects this connector. */
    String name();

    /**
     * Reads the options of a table with physical columns {@code type}; fails with a {@link ConnectorException} naming a
     * missing, unknown or invalid option. Every option must be read here so that {@link ConnectorOptions#checkAllUsed}
     * can find unknown ones.
     */
    Opened open(RowType type, ConnectorOptions options);

    /** A table's connector with its options read. */
    interface Opened {
        /**
         * A stream of the physical rows with timestamps and watermarks from {@code watermarks} (applied per split where
         * the source has splits); null if the connector cannot be read.
         */
        DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks);

        /** A sink of physical rows; null if the connector cannot be written. */
        Sink<Row> sink();

        /** What EXPLAIN shows of the connector, like {@code datagen, rows-per-second=10}. */
        String describe();
    }
}
