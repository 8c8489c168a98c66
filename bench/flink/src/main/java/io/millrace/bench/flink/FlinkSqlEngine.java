package io.millrace.bench.flink;

import io.millrace.bench.workload.BenchDriver;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Engine;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

/**
 * Runs the benchmark queries in Flink SQL ({@link FlinkSqlQueries}) on the same local environment, source and
 * watermarks as {@link FlinkEngine}: the input stream becomes a table, the query's result goes back to a stream of
 * {@link Row}s (a changelog for {@link FlinkSqlQueries#UPDATING} queries: each insert, update and retraction a row)
 * into the same counting sink. Each row's stream record carries the result's time (the latency probe
 * reads it): the table's time attribute, or for results without one ({@link FlinkSqlQueries#TIME_AS_COLUMN}) the
 * row's last column, stamped by an assigner that emits no watermarks (the sink needs none).
 */
public final class FlinkSqlEngine implements Engine {
    public static void main(String[] args) throws Exception {
        if (BenchOptions.parse(args).secondStep != null) {
            System.err.println("flink-sql: --second-step applies to the DataStream engines; the SQL planner chooses its own plan");
            System.exit(3);
        }
        BenchDriver.main(new FlinkSqlEngine(), args);
    }

    @Override
    public String name() {
        return "flink-sql";
    }

    @Override
    public void run(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir) throws Exception {
        environment(options, input, ratePerSecond, checkpointDir, new CountingSink<>()).execute("bench-sql-" + options.query.id());
    }

    /** A local environment with {@code options.query} in SQL over {@code input}, its rows into {@code results}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static StreamExecutionEnvironment environment(BenchOptions options, Input input, double rate, Path checkpointDir, Sink<?> results) {
        Query q = options.query;
        StreamExecutionEnvironment env = FlinkEngine.localEnvironment(options, checkpointDir);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env, EnvironmentSettings.newInstance()
                .inStreamingMode().withConfiguration(FlinkSqlQueries.settings(q)).build());
        Table result = q.isNexmark()
                ? FlinkSqlQueries.nexmark(q, options.eventRate, tables, FlinkEngine.nexmarkEvents(env, options, input, rate))
                : FlinkSqlQueries.telemetry(q, tables, FlinkEngine.readings(env, options, input, rate));
        DataStream<Row> rows = FlinkSqlQueries.UPDATING.contains(q) ? tables.toChangelogStream(result) : tables.toDataStream(result);
        if (FlinkSqlQueries.TIME_AS_COLUMN.contains(q)) {
            rows = rows.assignTimestampsAndWatermarks(WatermarkStrategy.<Row>noWatermarks()
                    .withTimestampAssigner((row, ts) -> row.<Instant>getFieldAs(row.getArity() - 1).toEpochMilli())).name("stamp");
        }
        rows.sinkTo((Sink) results).name("results");
        return env;
    }
}
