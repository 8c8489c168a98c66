package io.millrace.bench.millrace;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.sink.Sink;
import io.millrace.bench.workload.BenchDriver;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Engine;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.sql.SqlSession;
import java.nio.file.Path;

/**
 * Runs the benchmark queries in Millrace SQL ({@link MillraceSqlQueries}) on the same pipeline settings, source and
 * watermarks as {@link MillraceEngine}: the input stream becomes rows of a table registered with
 * {@link SqlSession#fromDataStream} (its records keep their timestamps and watermarks), and the query's rows, from
 * {@link SqlSession#toDataStream}, go into the same counting sink. Each result keeps the stream record's timestamp the
 * SQL layer gives it (the input row's for projections and filters, the window's end - 1 ms for window
 * aggregations), which the latency probe reads.
 */
public final class MillraceSqlEngine implements Engine {
    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        if (options.secondStep != null) {
            System.err.println("millrace-sql: --second-step applies to the DataStream engines; the SQL planner chooses its own plan");
            System.exit(3);
        }
        String missing = MillraceSqlQueries.missing(options.query);
        if (missing != null) {
            System.err.println("millrace-sql has no " + options.query.id() + ": the SQL layer has no " + missing + " yet");
            System.exit(3);
        }
        BenchDriver.main(new MillraceSqlEngine(), args);
    }

    @Override
    public String name() {
        return "millrace-sql";
    }

    @Override
    public void run(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir) throws Exception {
        Pipeline pipeline = build(options, input, ratePerSecond, checkpointDir, new CountingSink<>());
        MillraceEngine.executor(options, checkpointDir).submit(pipeline.plan(), "bench-sql-" + options.query.id()).await();
    }

    /** The pipeline of {@code options.query} in SQL over {@code input}, its rows into {@code results}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Pipeline build(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir, Sink<?> results) {
        Query q = options.query;
        Pipeline pipeline = MillraceEngine.pipeline(options, checkpointDir);
        SqlSession sql = SqlSession.create(new PipelineConfig().parallelism(options.parallelism));
        if (q.isNexmark()) {
            DataStream<Row> bids = MillraceEngine.nexmarkEvents(pipeline, options, input, ratePerSecond)
                    .flatMap(new MillraceSqlQueries.BidRows()).name("bid-rows").uid("bid-rows");
            sql.fromDataStream("bid", bids, MillraceSqlQueries.BID, "rowtime");
        } else {
            DataStream<Row> readings = MillraceEngine.readings(pipeline, options, input, ratePerSecond)
                    .map(new MillraceSqlQueries.ReadingRows()).name("reading-rows").uid("reading-rows");
            sql.fromDataStream("reading", readings, MillraceSqlQueries.READING, "rowtime");
        }
        sql.toDataStream(pipeline, MillraceSqlQueries.sql(q)).sinkTo((Sink) results).name("results");
        return pipeline;
    }
}
