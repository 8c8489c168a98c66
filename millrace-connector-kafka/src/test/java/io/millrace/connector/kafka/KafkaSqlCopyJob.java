package io.millrace.connector.kafka;

import io.millrace.sql.SqlSession;

/**
 * The SQL job {@link KafkaSqlCrashLoopIT} kills again and again: {@code INSERT INTO} a {@code kafka} table, exactly
 * once, from another. Run as {@code KafkaSqlCopyJob <dir> <bootstrap> <in> <out>}; it resumes from the checkpoints in
 * {@code <dir>/checkpoints} by itself and prints FINISHED when the input is copied. The source fetches one record batch
 * at a time (a one-byte fetch size over input written one record per batch), so that a run lasts a few seconds.
 */
public final class KafkaSqlCopyJob {
    private KafkaSqlCopyJob() {}

    public static void main(String[] args) {
        String dir = args[0];
        String bootstrap = args[1];
        String in = args[2];
        String out = args[3];
        SqlSession.create().executeScript("""
                SET 'parallelism' = '2';
                SET 'execution.checkpointing.interval' = '200ms';
                SET 'execution.checkpointing.dir' = '%s/checkpoints';
                CREATE TABLE source_lines (line STRING) WITH (
                  'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
                  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
                  'properties.max.partition.fetch.bytes' = '1', 'properties.fetch.max.bytes' = '1');
                CREATE TABLE copied_lines (line STRING) WITH (
                  'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'raw',
                  'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '%s');
                INSERT INTO copied_lines SELECT line FROM source_lines;
                """.formatted(dir, in, bootstrap, out, bootstrap, out));
        System.out.println("FINISHED");
    }
}
