# DATE and TIME columns: read from JSON, CAST to and from text and timestamps, compared with literals, written back.
data shifts.jsonl
{"worker":"ana","day":"2026-03-01","starts":"06:00:00","ts":"2026-03-01T06:02:03.250Z"}
{"worker":"bo","day":"2026-03-02","starts":"14:30:00","ts":"2026-03-02T14:29:59Z"}
{"worker":"cy","day":null,"starts":"22:00:00.500","ts":"2026-03-02T23:59:59.999Z"}

statement ok
CREATE TABLE shifts (
  worker STRING,
  `day` DATE,
  starts TIME(3),
  ts TIMESTAMP_LTZ(3)
) WITH ('connector' = 'filesystem', 'path' = '${data}/shifts.jsonl', 'format' = 'json')

query
SELECT worker, `day`, starts, CAST(`day` AS STRING), CAST(starts AS STRING) FROM shifts
----
+I[ana, 2026-03-01, 06:00, 2026-03-01, 06:00:00]
+I[bo, 2026-03-02, 14:30, 2026-03-02, 14:30:00]
+I[cy, null, 22:00:00.500, null, 22:00:00.500]

query
SELECT worker, CAST(ts AS DATE), CAST(ts AS TIME(3)), CAST(CAST(ts AS DATE) AS TIMESTAMP(3)) FROM shifts
----
+I[ana, 2026-03-01, 06:02:03.250, 2026-03-01T00:00:00Z]
+I[bo, 2026-03-02, 14:29:59, 2026-03-02T00:00:00Z]
+I[cy, 2026-03-02, 23:59:59.999, 2026-03-02T00:00:00Z]

query
SELECT worker FROM shifts WHERE `day` >= DATE '2026-03-02' OR starts < TIME '07:00:00'
----
+I[ana]
+I[bo]

query
SELECT worker, CAST('2026-12-31' AS DATE), CAST('23:15' AS TIME) FROM shifts WHERE worker = 'ana'
----
+I[ana, 2026-12-31, 23:15]

error
SELECT CAST('31.12.2026' AS DATE) FROM shifts
----
cannot cast '31.12.2026' to DATE: expected yyyy-MM-dd

error
CREATE TABLE bad (t TIME(6)) WITH ('connector' = 'blackhole')
----
line 1, column 26: TIME precision must be 0 to 3 (milliseconds), was 6
