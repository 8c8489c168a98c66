package io.millrace.connector.kafka.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.sql.SqlException;
import io.millrace.sql.SqlSession;
import org.junit.jupiter.api.Test;

/** Missing and bad options of the kafka and upsert-kafka tables fail CREATE TABLE naming the option and what it accepts. */
class KafkaTableOptionsTest {
    private static final String SERVERS = "'properties.bootstrap.servers' = '127.0.0.1:9'";

    private static void fails(String ddl, String... message) {
        assertThatThrownBy(() -> SqlSession.create().executeScript(ddl)).isInstanceOf(SqlException.class).hasMessageContainingAll(message);
    }

    @Test
    void kafkaTable_withEveryOptionRight_isCreated_andDescribedInExplain() {
        SqlSession sql = SqlSession.create();
        sql.executeScript("""
                CREATE TABLE t (a STRING, b INT) WITH ('connector' = 'kafka', 'topic' = 'x', %s, 'key.format' = 'csv', 'key.fields' = 'a',
                  'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY', 'value.json.ignore-parse-errors' = 'true',
                  'properties.client.id' = 'c', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'p');
                CREATE TABLE s (a STRING, b INT) WITH ('connector' = 'blackhole');
                """.formatted(SERVERS));
        String plan = sql.query("EXPLAIN INSERT INTO s SELECT a, b FROM t").get(0).getString(0);
        assertThat(plan).contains("connector=[kafka, topic=x, properties.bootstrap.servers=127.0.0.1:9, format=json, key.format=csv, key.fields=a]");
    }

    @Test
    void missingOptions_areNamedWithWhatTheyTake() {
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', " + SERVERS + ", 'format' = 'json')", "line 1, column 1",
                "needs option 'topic'");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', 'format' = 'json')",
                "needs option 'properties.bootstrap.servers'");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ")", "needs option 'value.format'",
                "json, csv, raw");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', 'key.fields' = 'a')",
                "needs option 'key.format'");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'sink.delivery-guarantee' = 'exactly-once')", "needs option 'sink.transactional-id-prefix'");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'scan.startup.mode' = 'timestamp')", "needs option 'scan.startup.timestamp-millis'");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'scan.startup.mode' = 'group-offsets')", "'scan.startup.mode' = 'group-offsets' needs option 'properties.group.id'");
        fails("CREATE TABLE t (a STRING, b INT) WITH ('connector' = 'upsert-kafka', 'topic' = 'x', " + SERVERS
                + ", 'key.format' = 'json', 'value.format' = 'json')", "needs a PRIMARY KEY (...) NOT ENFORCED");
        fails("CREATE TABLE t (a STRING, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'x', " + SERVERS
                + ", 'value.format' = 'json')", "needs option 'key.format'");
    }

    @Test
    void badValues_areNamedWithTheAcceptedOnes() {
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'scan.startup.mode' = 'earliest')", "option 'scan.startup.mode' = 'earliest' is invalid",
                "earliest-offset, latest-offset, group-offsets, timestamp, specific-offsets");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'avro')",
                "option 'format' = 'avro' is invalid: expected one of json, csv, raw");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'sink.delivery-guarantee' = 'none')", "option 'sink.delivery-guarantee' = 'none' is invalid: expected one of at-least-once, exactly-once");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'properties.no.such.property' = '1')", "option 'properties.no.such.property'", "not a Kafka consumer or producer property");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'properties.enable.auto.commit' = 'true')", "option 'properties.enable.auto.commit'", "set by the source");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', 'key.format' = 'json', "
                + "'key.fields' = 'b')", "option 'key.fields' = 'b' is invalid", "its columns are [a]");
        fails("CREATE TABLE t (a STRING, b INT) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'raw')",
                "'format' = 'raw' reads and writes one STRING column");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', "
                + "'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'p0:12')",
                "option 'scan.startup.specific-offsets' = 'p0:12' is invalid", "partition:0,offset:42");
        fails("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x', " + SERVERS + ", 'format' = 'json', 'sink.parallelism' = '2')",
                "unknown option 'sink.parallelism' for connector 'kafka'");
    }

    @Test
    void writingToSeveralTopics_failsTheInsert_namingTopic() {
        SqlSession sql = SqlSession.create();
        sql.executeScript("CREATE TABLE t (a STRING) WITH ('connector' = 'kafka', 'topic' = 'x;y', " + SERVERS + ", 'format' = 'json');"
                + "CREATE TABLE d (a STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
        assertThatThrownBy(() -> sql.executeScript("INSERT INTO t SELECT a FROM d")).isInstanceOf(SqlException.class)
                .hasMessageContaining("writing needs exactly one topic in option 'topic', not 2");
    }

    @Test
    void anUpdatingQuery_cannotBeWrittenToAnAppendOnlyKafkaTable() {
        SqlSession sql = SqlSession.create();
        sql.executeScript("CREATE TABLE u (a STRING, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'u', "
                + SERVERS + ", 'key.format' = 'json', 'value.format' = 'json');"
                + "CREATE TABLE t (a STRING, b INT) WITH ('connector' = 'kafka', 'topic' = 't', " + SERVERS + ", 'format' = 'json')");
        assertThatThrownBy(() -> sql.executeScript("INSERT INTO t SELECT a, b FROM u")).isInstanceOf(SqlException.class)
                .hasMessageContaining("table 't' (connector 'kafka') accepts inserts only, but the query emits [UA,D]");
    }
}
