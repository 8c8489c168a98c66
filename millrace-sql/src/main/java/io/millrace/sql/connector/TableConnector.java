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

        /**
         * A sink of physical rows; null if the connector cannot be written. May throw a {@link ConnectorException} for
         * options that only writing needs (like a single topic), naming the option.
         */
        Sink<Row> sink();

        /** What EXPLAIN shows of the connector, like {@code datagen, rows-per-second=10}. */
        String describe();

        /**
         * The kinds of the rows {@link #source} emits: inserts only (the default), or a changelog, like the
         * {@code +U} and {@code -D} rows of an upsert table.
         */
        default java.util.Set<io.millrace.api.row.RowKind> changelogKinds() {
            return java.util.EnumSet.of(io.millrace.api.row.RowKind.INSERT);
        }

        /**
         * True when {@link #sink} takes updates and deletes ({@code -U}, {@code +U}, {@code -D}) besides inserts;
         * false (the default) for an append-only sink, to which an updating query cannot be written.
         */
        default boolean acceptsChanges() {
            return false;
        }

        /**
         * The columns whose values pick the sink subtask of a row, so that the changes of one key reach the sink in
         * order (an upsert sink's primary key); empty (the default): rows stay on the subtask that made them.
         */
        default java.util.List<String> sinkKey() {
            return java.util.List.of();
        }
    }
}
