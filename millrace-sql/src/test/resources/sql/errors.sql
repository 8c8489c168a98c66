# Errors name the line and column of the statement, and what is wrong.
data t.jsonl
{"a":1,"ts":"2026-01-01T00:00:01Z"}

statement ok
CREATE TABLE t (a INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = '${data}/t.jsonl', 'format' = 'json')

error
SELECT a, b FROM t
----
line 1, column 11: Column 'b' not found in any table

error
SELECT a FROM nope
----
line 1, column 15: Object 'nope' not found

error
SELECT a,
  COUNT(*) FROM t GROUP BY a
----
line 2, column 19: aggregation without a window

error
SELECT t1.a FROM t t1 JOIN t t2 ON t1.a = t2.a
----
line 1, column 23: joins are not supported yet

error
SELECT a FROM t ORDER BY a
----
line 1, column 1: ORDER BY and LIMIT are not supported yet

error
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start
----
a window aggregation must group by both window_start and window_end

error
SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY a, DESCRIPTOR(ts), INTERVAL '1' SECOND))
----
SESSION windows are supported under a window aggregation only

error
SELECT window_start, COUNT(*) FROM TABLE(SESSION(TABLE t PARTITION BY a, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end
----
a SESSION window aggregation must group by window_start, window_end and exactly its PARTITION BY columns [a], was grouped by []

error
SELECT window_start, COUNT(*) FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end
----
CUMULATE's size (10000 ms) must be a whole multiple of its step (3000 ms)

error
SELEC a FROM t
----
line 1, column 1: unknown statement starting with 'SELEC'

error
SELECT a FROM t WHERE
----
line 1, column 21: syntax error: the statement ends too early

error
CREATE TABLE u (a INT, b FOO) WITH ('connector' = 'blackhole')
----
line 1, column 26: unknown type 'FOO'

error
CREATE TABLE u (a INT) WITH ('connector' = 'datagen', 'rows-per-secnd' = '5')
----
line 1, column 1: table 'u': unknown option 'rows-per-secnd' for connector 'datagen'; its options are connector, fields.a.kind, fields.a.max, fields.a.min, number-of-rows, rows-per-second, seed

error
CREATE TABLE u (a INT) WITH ('connector' = 'kafkaa')
----
unknown connector 'kafkaa'; known connectors: datagen, print, blackhole, filesystem, factory-simulator

error
CREATE TABLE u (a INT) WITH ('connector' = 'filesystem', 'format' = 'json')
----
table 'u' (connector 'filesystem') needs option 'path'

error
CREATE TABLE u (a INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'avro')
----
option 'format' = 'avro' is invalid: expected one of json

error
CREATE TABLE u (a INT, ts TIMESTAMP_LTZ(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECND) WITH ('connector' = 'blackhole')
----
line 2, column

error
CREATE TABLE u (a INT, WATERMARK FOR a AS a) WITH ('connector' = 'blackhole')
----
the event-time attribute 'a' must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)

error
SET 'paralelism' = '4'
----
unknown option 'paralelism'

error
SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(a), INTERVAL '1' SECOND))
----
line 1, column 21: Cannot apply 'TUMBLE'

statement ok
CREATE TABLE plain (a INT, ts TIMESTAMP_LTZ(3)) WITH ('connector' = 'filesystem', 'path' = '${data}/t.jsonl', 'format' = 'json')

error
SELECT window_start, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY window_start, window_end
----
line 1, column 1: DESCRIPTOR(ts) of TUMBLE must name an event-time attribute (a column with a WATERMARK, or the window_time of a window aggregation; the input has none)

# The dead-letter table of late rows ('late-rows.table' of the source) must exist and have known columns.
statement ok
CREATE TABLE t_late (a INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '${data}/t.jsonl', 'format' = 'json', 'late-rows.table' = 'nope');
CREATE TABLE bad_dl (`row` STRING, extra INT) WITH ('connector' = 'blackhole');
CREATE TABLE t_late2 (a INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '${data}/t.jsonl', 'format' = 'json', 'late-rows.table' = 'bad_dl')

error
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t_late, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end
----
line 1, column 1: option 'late-rows.table' = 'nope' of table 't_late': there is no table named 'nope'

error
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t_late2, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end
----
dead-letter table 'bad_dl' has column 'extra'; its columns can be row STRING, reason STRING, event_time TIMESTAMP_LTZ(3), watermark TIMESTAMP_LTZ(3), operator STRING
