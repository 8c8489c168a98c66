# Projection, filter, CASE, CAST, arithmetic and scalar functions over a JSON-lines table.
data readings.jsonl
{"machine":"m1","temp":20.5,"n":3,"ts":"2026-01-01T00:00:01Z"}
{"machine":"m2","temp":85.0,"n":7,"ts":"2026-01-01T00:00:02Z"}
{"machine":"m1","temp":-1.5,"n":null,"ts":"2026-01-01T00:00:03Z"}

statement ok
CREATE TABLE readings (
  machine STRING,
  temp DOUBLE,
  n INT,
  ts TIMESTAMP_LTZ(3)
) WITH ('connector' = 'filesystem', 'path' = '${data}/readings.jsonl', 'format' = 'json')

query
SELECT machine, temp * 2 + 1, n + 1, UPPER(machine) || '!' FROM readings
----
+I[m1, 42.0, 4, M1!]
+I[m2, 171.0, 8, M2!]
+I[m1, -2.0, null, M1!]

query
SELECT machine, CASE WHEN temp > 80 THEN 'hot' WHEN temp < 0 THEN 'frozen' ELSE 'ok' END AS status FROM readings WHERE machine <> 'x'
----
+I[m1, ok]
+I[m2, hot]
+I[m1, frozen]

query
SELECT CAST(temp AS INT), CAST(n AS STRING), CAST(ts AS STRING), n IS NULL FROM readings WHERE temp > 0
----
+I[20, 3, 2026-01-01 00:00:01.000, false]
+I[85, 7, 2026-01-01 00:00:02.000, false]

query
SELECT CHAR_LENGTH(machine), SUBSTRING(machine FROM 2), ABS(temp), MOD(n, 2), COALESCE(n, 0), EXTRACT(SECOND FROM ts) FROM readings
----
+I[2, 1, 20.5, 1, 3, 1]
+I[2, 2, 85.0, 1, 7, 2]
+I[2, 1, 1.5, null, 0, 3]

query
SELECT machine FROM readings WHERE machine LIKE 'm%' AND (temp BETWEEN 0 AND 50 OR n IN (7, 8))
----
+I[m1]
+I[m2]

query
SELECT SPLIT_INDEX('a/b//c', '/', 2), SPLIT_INDEX('a/b//c', '/', 3), SPLIT_INDEX('a/b', '/', 2), SPLIT_INDEX('a b  c', '', 2), REGEXP_EXTRACT('x=12&y=7', 'y=([0-9]+)', 1), REGEXP_EXTRACT('x=12', 'y=([0-9]+)', 1), REGEXP_EXTRACT('x=12', 'x=[0-9]+'), REGEXP_EXTRACT('x=12', '(', 1)
----
+I[, c, null, c, 7, null, x=12, null]
