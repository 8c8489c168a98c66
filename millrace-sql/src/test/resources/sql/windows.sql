# Window table functions and window aggregation, over rows out of order within the watermark's bound.
data readings.jsonl
{"machine":"m1","temp":20.0,"n":1,"ts":"2026-01-01T00:00:01Z"}
{"machine":"m2","temp":30.0,"n":2,"ts":"2026-01-01T00:00:04Z"}
{"machine":"m1","temp":22.0,"n":3,"ts":"2026-01-01T00:00:03Z"}
{"machine":"m1","temp":24.0,"n":4,"ts":"2026-01-01T00:00:12Z"}
{"machine":"m2","temp":31.0,"n":5,"ts":"2026-01-01T00:00:09Z"}
{"machine":"m2","temp":35.0,"n":6,"ts":"2026-01-01T00:00:15Z"}
{"machine":"m1","temp":26.0,"n":null,"ts":"2026-01-01T00:00:11Z"}

statement ok
CREATE TABLE readings (
  machine STRING,
  temp DOUBLE,
  n INT,
  ts TIMESTAMP_LTZ(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${data}/readings.jsonl', 'format' = 'json')

query
SELECT window_start, window_end, machine, COUNT(*) AS c, SUM(n) AS s, MIN(temp), MAX(temp), AVG(temp), COUNT(n)
FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, machine
----
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, m1, 2, 4, 20.0, 22.0, 21.0, 2]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, m2, 2, 7, 30.0, 31.0, 30.5, 2]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z, m1, 2, 4, 24.0, 26.0, 25.0, 1]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z, m2, 1, 6, 35.0, 35.0, 35.0, 1]

query
SELECT window_start, COUNT(*) AS c, SUM(temp) FROM TABLE(HOP(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
WHERE temp > 21
GROUP BY window_start, window_end
----
+I[2025-12-31T23:59:55Z, 2, 52.0]
+I[2026-01-01T00:00:00Z, 3, 83.0]
+I[2026-01-01T00:00:05Z, 3, 81.0]
+I[2026-01-01T00:00:10Z, 3, 85.0]
+I[2026-01-01T00:00:15Z, 1, 35.0]

query
SELECT machine, n, window_start, window_end FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND)) WHERE n > 4
----
+I[m2, 5, 2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z]
+I[m2, 6, 2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z]

statement ok
CREATE VIEW hot AS SELECT machine, temp * 2 + 32 AS score, ts FROM readings WHERE temp >= 24

query
SELECT window_end, machine, MAX(score) FROM TABLE(TUMBLE(TABLE hot, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, machine
----
+I[2026-01-01T00:00:10Z, m2, 94.0]
+I[2026-01-01T00:00:20Z, m1, 84.0]
+I[2026-01-01T00:00:20Z, m2, 102.0]

query
SELECT machine, c FROM (
  SELECT window_start, window_end, machine, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '20' SECOND))
  GROUP BY window_start, window_end, machine) WHERE c > 3
----
+I[m1, 4]

# window_time (window_end - 1 ms) can be grouped by; it is the event-time attribute of the result.
query
SELECT window_start, window_end, window_time, machine, COUNT(*) FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY window_start, window_end, window_time, machine
----
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:05Z, 2026-01-01T00:00:04.999Z, m1, 2]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:05Z, 2026-01-01T00:00:04.999Z, m2, 1]
+I[2026-01-01T00:00:05Z, 2026-01-01T00:00:10Z, 2026-01-01T00:00:09.999Z, m2, 1]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:15Z, 2026-01-01T00:00:14.999Z, m1, 2]
+I[2026-01-01T00:00:15Z, 2026-01-01T00:00:20Z, 2026-01-01T00:00:19.999Z, m2, 1]

# Cascading windows: a 10-second TUMBLE over the result of a 5-second one, on its window_time.
statement ok
CREATE VIEW per5s AS
SELECT window_start AS ws, window_time AS wt, machine, COUNT(*) AS c, SUM(temp) AS s
FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY window_start, window_end, window_time, machine

query
SELECT window_start, window_end, machine, SUM(c), MAX(s), COUNT(*) FROM TABLE(TUMBLE(TABLE per5s, DESCRIPTOR(wt), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, machine
----
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, m1, 2, 42.0, 1]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, m2, 2, 31.0, 2]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z, m1, 2, 50.0, 1]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z, m2, 1, 35.0, 1]

query
SELECT window_start, window_end, window_time, machine, n FROM TABLE(CUMULATE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
WHERE n = 1
----
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:05Z, 2026-01-01T00:00:04.999Z, m1, 1]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, 2026-01-01T00:00:09.999Z, m1, 1]

# CUMULATE: windows of 10 seconds that grow by 5 seconds, each emitted once when it closes.
query
SELECT window_start, window_end, machine, COUNT(*) AS c, SUM(temp), MAX(n)
FROM TABLE(CUMULATE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end, machine
----
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:05Z, m1, 2, 42.0, 3]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, m1, 2, 42.0, 3]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:05Z, m2, 1, 30.0, 2]
+I[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z, m2, 2, 61.0, 5]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:15Z, m1, 2, 50.0, 4]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z, m1, 2, 50.0, 4]
+I[2026-01-01T00:00:10Z, 2026-01-01T00:00:20Z, m2, 1, 35.0, 6]

# SESSION with PARTITION BY, as in Flink: per machine, runs of readings less than 4 seconds apart.
query
SELECT window_start, window_end, machine, COUNT(*), SUM(n)
FROM TABLE(SESSION(TABLE readings PARTITION BY machine, DESCRIPTOR(ts), INTERVAL '4' SECOND))
GROUP BY window_start, window_end, machine
----
+I[2026-01-01T00:00:01Z, 2026-01-01T00:00:07Z, m1, 2, 4]
+I[2026-01-01T00:00:11Z, 2026-01-01T00:00:16Z, m1, 2, 4]
+I[2026-01-01T00:00:04Z, 2026-01-01T00:00:08Z, m2, 1, 2]
+I[2026-01-01T00:00:09Z, 2026-01-01T00:00:13Z, m2, 1, 5]
+I[2026-01-01T00:00:15Z, 2026-01-01T00:00:19Z, m2, 1, 6]

# Late rows go to the table named by 'late-rows.table'; none of these rows is late (all within the watermark's bound).
statement ok
CREATE TABLE readings_dl (
  machine STRING,
  temp DOUBLE,
  n INT,
  ts TIMESTAMP_LTZ(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${data}/readings.jsonl', 'format' = 'json', 'late-rows.table' = 'too_late');
CREATE TABLE too_late (`row` STRING, reason STRING, `watermark` TIMESTAMP_LTZ(3)) WITH ('connector' = 'blackhole')

query
SELECT window_start, machine, COUNT(*) FROM TABLE(CUMULATE(TABLE readings_dl, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND))
GROUP BY window_start, window_end, machine
----
+I[2026-01-01T00:00:00Z, m1, 2]
+I[2026-01-01T00:00:00Z, m1, 4]
+I[2026-01-01T00:00:00Z, m2, 2]
+I[2026-01-01T00:00:00Z, m2, 3]
