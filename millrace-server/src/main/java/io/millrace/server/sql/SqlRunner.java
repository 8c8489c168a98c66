package io.millrace.server.sql;

import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.sql.SqlException;
import io.millrace.sql.SqlSession;
import io.millrace.sql.StatementResult;
import io.millrace.sql.parser.Statement;
import io.millrace.sql.parser.StatementParser;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Runs statements of the SQL client one after the other and prints what each gave: messages, tables of rows,
 * plans, and the rows of queries as they come. Jobs (INSERT, statement sets, queries) run until they end or
 * {@link #stopCurrent} stops them. The client's own {@code SET 'sql-client.execution.result-mode' = '...'} picks
 * how queries are shown. Used from one thread, except {@link #stopCurrent}, which any thread may call.
 */
public final class SqlRunner {
    static final String RESULT_MODE = "sql-client.execution.result-mode";

    private final SqlSession session;
    private final PrintWriter out;
    private final Runnable clearScreen;
    private ResultMode mode;
    private volatile JobHandle current;
    private volatile boolean stopped;

    /** {@code clearScreen} null: the output cannot be redrawn (a file, a pipe, a dumb terminal). */
    public SqlRunner(SqlSession session, PrintWriter out, ResultMode mode, Runnable clearScreen) {
        this.session = session;
        this.out = out;
        this.mode = mode;
        this.clearScreen = clearScreen;
    }

    /** Runs every statement of {@code script}; stops at the first error, which it throws. */
    public void runScript(String script) {
        for (Statement s : StatementParser.parse(script)) {
            run(s, script);
        }
    }

    /** True between BEGIN STATEMENT SET and END. */
    public boolean inStatementSet() {
        return session.inStatementSet();
    }

    /** Stops the job that runs now (a query or an INSERT), if any; the client goes on with its next statement. */
    public void stopCurrent() {
        JobHandle job = current;
        if (job != null) {
            stopped = true;
            job.cancel();
        }
    }

    /** Runs one statement parsed from {@code script} and prints its result; a failure is a {@link SqlException}. */
    public void run(Statement s, String script) {
        if (s instanceof Statement.Set set && RESULT_MODE.equals(set.key())) {
            try {
                mode = ResultMode.parse(set.value());
            } catch (IllegalArgumentException e) {
                throw new SqlException(e.getMessage(), set.line(), set.column(), script, e);
            }
            out.println("Set '" + RESULT_MODE + "' = '" + set.value().toLowerCase(Locale.ROOT) + "'");
            out.flush();
            return;
        }
        if (s instanceof Statement.Query q) {
            query(q, script);
            return;
        }
        JobHandle job = session.submit(s, script);
        if (job != null) {
            out.println("Job '" + job.jobName() + "' started");
            out.flush();
            JobResult result = await(job, s, script);
            out.println("Job '" + job.jobName() + "' " + (result.cancelled() ? "stopped" : "finished") + " after " + seconds(result.duration()));
            out.flush();
            return;
        }
        print(session.execute(s, script));
    }

    private void query(Statement.Query q, String script) {
        QueryView[] view = new QueryView[1];
        SqlSession.RunningQuery running = session.submitQuery(q, script, type -> {
            view[0] = QueryView.of(mode, type, out, clearScreen);
            return QueryView.sinkTo(view[0]);
        });
        JobResult result;
        try {
            current = running.job();
            stopped = false;
            while ((result = running.job().await(Duration.ofSeconds(1))) == null) {
                view[0].refresh();
            }
        } catch (JobExecutionException e) {
            throw new SqlException("the query failed: " + rootMessage(e), q.line(), q.column(), script, e);
        } catch (InterruptedException e) {
            running.job().cancel();
            Thread.currentThread().interrupt();
            throw new SqlException("interrupted while the query ran", q.line(), q.column(), script, e);
        } finally {
            current = null;
        }
        view[0].finish(result.cancelled() || stopped);
    }

    private JobResult await(JobHandle job, Statement s, String script) {
        try {
            current = job;
            stopped = false;
            return job.await();
        } catch (JobExecutionException e) {
            throw new SqlException("the job of this statement failed: " + rootMessage(e), s.line(), s.column(), script, e);
        } catch (InterruptedException e) {
            job.cancel();
            Thread.currentThread().interrupt();
            throw new SqlException("interrupted while the job ran", s.line(), s.column(), script, e);
        } finally {
            current = null;
        }
    }

    private void print(StatementResult r) {
        if (r.type() == null) {
            out.println(r.message());
        } else if (r.type().size() == 1 && r.type().name(0).equals("plan")) {
            r.rows().forEach(row -> out.print(row.getString(0)));
        } else {
            out.print(ResultFormat.table(r.type(), r.rows(), false));
        }
        out.flush();
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
    }
}
