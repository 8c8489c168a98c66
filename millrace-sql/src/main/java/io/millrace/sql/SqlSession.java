package io.millrace.sql;

import io.millrace.sql.types.Types;
import io.millrace.api.DataStream;
import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.sql.catalog.Catalog;
import io.millrace.sql.catalog.ColumnInfo;
import io.millrace.sql.catalog.StreamTable;
import io.millrace.sql.exec.PhysicalNode;
import io.millrace.sql.exec.Translation;
import io.millrace.sql.parser.Statement;
import io.millrace.sql.parser.StatementParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs Flink-style SQL statements: DDL into the session's catalog, {@code SET} into its job options, queries and
 * {@code INSERT INTO} as Millrace jobs.
 *
 * <pre>{@code
 * SqlSession sql = SqlSession.create(new PipelineConfig().parallelism(4));
 * sql.executeScript("CREATE TABLE readings (...) WITH ('connector' = 'filesystem', ...);"
 *         + "CREATE TABLE alerts (...) WITH ('connector' = 'print');"
 *         + "INSERT INTO alerts SELECT ... FROM readings WHERE ...;");
 * }</pre>
 *
 * <p>{@code INSERT INTO} and queries run as jobs with the session's {@link PipelineConfig} and its {@code SET}
 * options; {@link #executeScript} waits for each to end (bounded sources), {@link #submit} starts an insert and
 * returns its handle. Errors are {@link SqlException}s with the line and column of the script. Not thread-safe: use a
 * session from one thread.
 */
public final class SqlSession {
    private final Catalog catalog = new Catalog();
    private final SessionSettings settings = new SessionSettings();
    private final PipelineConfig config;
    private final Statements statements;
    /** The plans of the INSERT statements since {@code BEGIN STATEMENT SET}; null when no statement set is open. */
    private List<PhysicalNode> openSet;
    private int openSetLine;

    private SqlSession(PipelineConfig config) {
        this.config = config.copy();
        this.statements = new Statements(catalog, settings);
    }

    /** A session whose jobs start from {@code new PipelineConfig()} (defaults and {@code millrace.*} system properties). */
    public static SqlSession create() {
        return new SqlSession(new PipelineConfig());
    }

    /** A session whose jobs start from {@code config}; {@code SET} options apply on top. */
    public static SqlSession create(PipelineConfig config) {
        return new SqlSession(config);
    }

    /** Runs every statement of {@code script} in order and returns their results; stops at the first error. */
    public List<StatementResult> executeScript(String script) {
        List<StatementResult> results = new ArrayList<>();
        for (Statement s : StatementParser.parse(script)) {
            results.add(run(s, script));
        }
        return results;
    }

    /**
     * Runs one statement parsed from {@code script} (by {@link StatementParser#parse}); {@code script} is the text its
     * positions refer to, for error messages. For a shell or a file runner that reports each statement's result as it
     * comes.
     */
    public StatementResult execute(Statement statement, String script) {
        return run(statement, script);
    }

    /** True between {@code BEGIN STATEMENT SET} and its {@code END}: INSERT statements are collected, not run. */
    public boolean inStatementSet() {
        return openSet != null;
    }

    /** Runs one statement. */
    public StatementResult execute(String statement) {
        List<Statement> parsed = StatementParser.parse(statement);
        if (parsed.size() != 1) {
            throw new SqlException("expected one statement, found " + parsed.size() + ": use executeScript for several", 1, 1, statement, null);
        }
        return run(parsed.get(0), statement);
    }

    /** Runs a query over bounded tables to its end and returns its rows. */
    public List<Row> query(String query) {
        StatementResult r = execute(query);
        if (r.type() == null) {
            throw new SqlException("not a query: " + r.message(), 1, 1, query, null);
        }
        return r.rows();
    }

    /** Starts an {@code INSERT INTO}, or an {@code EXECUTE STATEMENT SET}, as a job and returns at once. */
    public JobHandle submit(String insert) {
        List<Statement> parsed = StatementParser.parse(insert);
        if (parsed.size() == 1 && parsed.get(0) instanceof Statement.StatementSet set) {
            return setPipeline(setPlans(set, insert)).executeAsync(settings.jobName("statement-set"));
        }
        if (parsed.size() != 1 || !(parsed.get(0) instanceof Statement.Insert ins)) {
            throw new SqlException("submit takes one INSERT INTO statement or EXECUTE STATEMENT SET BEGIN ... END", 1, 1, insert, null);
        }
        Pipeline pipeline = Pipeline.create(settings.apply(config));
        statements.insertPlan(ins, insert).translate(new Translation(pipeline, "insert-" + ins.table()));
        return pipeline.executeAsync(settings.jobName("insert-into-" + ins.table()));
    }

    /**
     * Starts the job of a statement parsed from {@code script} and returns at once: an {@code INSERT INTO} (outside a
     * statement set), an {@code EXECUTE STATEMENT SET}, or the {@code END} of a {@code BEGIN STATEMENT SET}. Returns
     * null for any other statement, which {@link #execute(Statement, String)} runs. For a shell that stops a job on
     * Ctrl-C.
     */
    public JobHandle submit(Statement statement, String script) {
        if (statement instanceof Statement.Insert ins && openSet == null) {
            Pipeline pipeline = Pipeline.create(pipelineConfig());
            statements.insertPlan(ins, script).translate(new Translation(pipeline, "insert-" + ins.table()));
            return pipeline.executeAsync(settings.jobName("insert-into-" + ins.table()));
        }
        if (statement instanceof Statement.StatementSet set && openSet == null) {
            return setPipeline(setPlans(set, script)).executeAsync(settings.jobName("statement-set"));
        }
        if (statement instanceof Statement.EndStatementSet end && openSet != null) {
            List<PhysicalNode> plans = openSet;
            openSet = null;
            if (plans.isEmpty()) {
                throw new SqlException("the statement set begun at line " + openSetLine + " has no INSERT statements", end.line(), end.column(),
                        script, null);
            }
            return setPipeline(plans).executeAsync(settings.jobName("statement-set"));
        }
        return null;
    }

    /** A query started as a job: the type of its rows and the job, whose rows go to the sink given to {@link #submitQuery}. */
    public record RunningQuery(RowType type, JobHandle job) {}

    /**
     * Starts a query ({@code SELECT}, {@code WITH}, {@code VALUES}) as a job whose rows, with their changelog kinds, go
     * to {@code sink} as they come, and returns at once; {@link JobHandle#cancel} stops it.
     */
    public RunningQuery submitQuery(String query, io.millrace.api.sink.Sink<Row> sink) {
        List<Statement> parsed = StatementParser.parse(query);
        if (parsed.size() != 1 || !(parsed.get(0) instanceof Statement.Query q)) {
            throw new SqlException("submitQuery takes one query", 1, 1, query, null);
        }
        return submitQuery(q, query, type -> sink);
    }

    /**
     * The same for a query parsed from {@code script}; {@code sink} gives the sink for the query's row type, before
     * the job starts.
     */
    public RunningQuery submitQuery(Statement.Query q, String script, java.util.function.Function<RowType, io.millrace.api.sink.Sink<Row>> sink) {
        PhysicalNode node = statements.queryPlan(q, script);
        Pipeline pipeline = Pipeline.create(pipelineConfig());
        new io.millrace.sql.exec.SinkNode(node, "collect", sink.apply(node.rowType())).translate(new Translation(pipeline, "query"));
        return new RunningQuery(node.rowType(), pipeline.executeAsync(settings.jobName("query")));
    }

    /**
     * Registers {@code stream} as a table named {@code name} that queries can read with {@link #toDataStream} on the
     * same pipeline. {@code rowtime}, if not null, names the column holding the records' event timestamps (it must be
     * a TIMESTAMP column); the stream's watermarks are used as they are.
     */
    public void fromDataStream(String name, DataStream<Row> stream, RowType type, String rowtime) {
        List<ColumnInfo> columns = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            columns.add(ColumnInfo.of(type.name(i), io.millrace.sql.types.Types.relTypeOf(type, i), null));
        }
        if (rowtime != null && type.indexOf(rowtime) < 0) {
            throw new IllegalArgumentException("rowtime column '" + rowtime + "' is not a field of " + type);
        }
        if (!catalog.add(new StreamTable(name, stream, columns, rowtime))) {
            throw new IllegalArgumentException("a table or view named '" + name + "' exists already");
        }
    }

    /** The rows of {@code query} as a stream of {@code pipeline}, which must hold the streams the query reads. */
    public DataStream<Row> toDataStream(Pipeline pipeline, String query) {
        List<Statement> parsed = StatementParser.parse(query);
        if (parsed.size() != 1 || !(parsed.get(0) instanceof Statement.Query q)) {
            throw new SqlException("toDataStream takes one query", 1, 1, query, null);
        }
        PhysicalNode node = statements.queryPlan(q, query);
        return node.translate(new Translation(pipeline, "query"));
    }

    /** The options {@code SET} so far, by the key they were set with. */
    public Map<String, String> settings() {
        return settings.values();
    }

    /** The configuration the next job of this session runs with. */
    public PipelineConfig pipelineConfig() {
        return settings.apply(config);
    }

    private StatementResult run(Statement s, String script) {
        if (openSet != null) {
            if (s instanceof Statement.Insert ins) {
                openSet.add(statements.insertPlan(ins, script));
                return StatementResult.ok("Added INSERT INTO '" + ins.table() + "' to the statement set (" + openSet.size()
                        + (openSet.size() == 1 ? " statement)" : " statements)"));
            }
            if (s instanceof Statement.EndStatementSet end) {
                List<PhysicalNode> plans = openSet;
                openSet = null;
                if (plans.isEmpty()) {
                    throw new SqlException("the statement set begun at line " + openSetLine + " has no INSERT statements", end.line(), end.column(),
                            script, null);
                }
                return runSet(plans, s, script);
            }
            throw new SqlException("between BEGIN STATEMENT SET and END only INSERT INTO statements are allowed; END runs them", s.line(),
                    s.column(), script, null);
        }
        if (s instanceof Statement.BeginStatementSet begin) {
            openSet = new ArrayList<>();
            openSetLine = begin.line();
            return StatementResult.ok("Statement set begun: INSERT INTO statements are collected until END");
        }
        if (s instanceof Statement.EndStatementSet) {
            throw new SqlException("END without BEGIN STATEMENT SET", s.line(), s.column(), script, null);
        }
        if (s instanceof Statement.StatementSet set) {
            return runSet(setPlans(set, script), s, script);
        }
        if (s instanceof Statement.Insert ins) {
            Pipeline pipeline = Pipeline.create(pipelineConfig());
            statements.insertPlan(ins, script).translate(new Translation(pipeline, "insert-" + ins.table()));
            JobResult result = runJob(pipeline, settings.jobName("insert-into-" + ins.table()), ins, script);
            return new StatementResult("Inserted into '" + ins.table() + "'", null, List.of(), result);
        }
        if (s instanceof Statement.Query q) {
            PhysicalNode node = statements.queryPlan(q, script);
            Pipeline pipeline = Pipeline.create(pipelineConfig());
            CollectSink<Row> sink = new CollectSink<>();
            new io.millrace.sql.exec.SinkNode(node, "collect", sink).translate(new Translation(pipeline, "query"));
            JobResult result = runJob(pipeline, settings.jobName("query"), q, script);
            return new StatementResult("OK", node.rowType(), sink.results(), result);
        }
        return statements.run(s, script);
    }

    private List<PhysicalNode> setPlans(Statement.StatementSet set, String script) {
        List<PhysicalNode> plans = new ArrayList<>();
        for (Statement.Insert ins : set.inserts()) {
            plans.add(statements.insertPlan(ins, script));
        }
        return plans;
    }

    /** One pipeline for all sinks of a statement set; sources of the same table are read once (see {@link Translation}). */
    private Pipeline setPipeline(List<PhysicalNode> plans) {
        Pipeline pipeline = Pipeline.create(pipelineConfig());
        Translation t = new Translation(pipeline, "statement-set");
        for (PhysicalNode p : plans) {
            p.translate(t);
        }
        return pipeline;
    }

    private StatementResult runSet(List<PhysicalNode> plans, Statement s, String script) {
        JobResult result = runJob(setPipeline(plans), settings.jobName("statement-set"), s, script);
        List<String> tables = new ArrayList<>();
        for (PhysicalNode p : plans) {
            tables.add("'" + ((io.millrace.sql.exec.SinkNode) p).table() + "'");
        }
        return new StatementResult("Inserted into " + String.join(", ", tables), null, List.of(), result);
    }

    private static JobResult runJob(Pipeline pipeline, String name, Statement s, String script) {
        try {
            return pipeline.execute(name);
        } catch (JobExecutionException e) {
            throw new SqlException("the job of this statement failed: " + rootMessage(e), s.line(), s.column(), script, e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
    }
}
