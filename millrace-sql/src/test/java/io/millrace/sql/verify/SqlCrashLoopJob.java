package io.millrace.sql.verify;

import io.millrace.sql.SqlSession;
import java.nio.file.Path;

/**
 * The SQL job the crash-loop test kills again and again: a one-second tumbling window per machine over a replayable
 * {@code datagen} table, counted and summed into an exactly-once {@code filesystem} table. Run as
 * {@code SqlCrashLoopJob <dir> <rows>}; it resumes from the checkpoints in {@code <dir>/checkpoints} by itself,
 * because a job started again with the same checkpoint directory restores its newest complete checkpoint.
 */
public final class SqlCrashLoopJob {
    /** Rows per second, of event time too: 0.125 ms per row, so window {@code k} holds rows {@code [k * RATE, (k + 1) * RATE)}. */
    static final int RATE = 8000;
    static final int MACHINES = 7;

    private SqlCrashLoopJob() {}

    static String script(Path dir, long rows) {
        return """
                SET 'parallelism.default' = '2';
                SET 'execution.checkpointing.interval' = '200ms';
                SET 'execution.checkpointing.dir' = '%s';
                CREATE TABLE readings (
                  id BIGINT,
                  ts TIMESTAMP_LTZ(3),
                  machine AS CAST(MOD(id, %d) AS INT),
                  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
                ) WITH (
                  'connector' = 'datagen',
                  'number-of-rows' = '%d',
                  'rows-per-second' = '%d',
                  'fields.id.kind' = 'sequence',
                  'fields.id.start' = '0'
                );
                CREATE TABLE per_machine (
                  machine INT,
                  window_start TIMESTAMP(3),
                  readings BIGINT,
                  ids BIGINT
                ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');
                INSERT INTO per_machine
                SELECT machine, window_start, COUNT(*), SUM(id)
                FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '1' SECOND))
                GROUP BY machine, window_start, window_end;
                """.formatted(dir.resolve("checkpoints"), MACHINES, rows, RATE, dir.resolve("out"));
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long rows = Long.parseLong(args[1]);
        SqlSession.create().executeScript(script(dir, rows));
        System.out.println("FINISHED");
    }
}
