# Temporal functions of Flink SQL: TO_TIMESTAMP, DATE_FORMAT, TIMESTAMPADD, TIMESTAMPDIFF, EXTRACT.
data events.jsonl
{"id":1,"text":"2026-03-01 12:30:45","ts":"2026-03-01T12:30:45.250Z"}
{"id":2,"text":"2026-12-31 23:59:59","ts":"2026-12-31T23:59:59Z"}
{"id":3,"text":"not a time","ts":"2026-01-01T00:00:00Z"}

statement ok
CREATE TABLE events (id INT, text STRING, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '${data}/events.jsonl', 'format' = 'json')

query
SELECT id, TO_TIMESTAMP(text), TO_TIMESTAMP(SUBSTRING(text FROM 1 FOR 10), 'yyyy-MM-dd') FROM events
----
+I[1, 2026-03-01T12:30:45Z, 2026-03-01T00:00:00Z]
+I[2, 2026-12-31T23:59:59Z, 2026-12-31T00:00:00Z]
+I[3, null, null]

query
SELECT id, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS'), DATE_FORMAT(ts, 'dd/MM/yy'), DATE_FORMAT(text, 'HH:mm') FROM events WHERE id < 3
----
+I[1, 2026-03-01 12:30:45.250, 01/03/26, 12:30]
+I[2, 2026-12-31 23:59:59.000, 31/12/26, 23:59]

query
SELECT id, TIMESTAMPADD(HOUR, 2, ts), TIMESTAMPADD(DAY, -1, ts), TIMESTAMPADD(SECOND, id, ts) FROM events WHERE id < 3
----
+I[1, 2026-03-01T14:30:45.250Z, 2026-02-28T12:30:45.250Z, 2026-03-01T12:30:46.250Z]
+I[2, 2027-01-01T01:59:59Z, 2026-12-30T23:59:59Z, 2027-01-01T00:00:01Z]

query
SELECT id, TIMESTAMPDIFF(SECOND, TIMESTAMP '2026-01-01 00:00:00', ts), TIMESTAMPDIFF(DAY, TIMESTAMP '2026-01-01 00:00:00', ts), TIMESTAMPDIFF(MINUTE, ts, TIMESTAMP '2026-01-01 00:00:00') FROM events
----
+I[1, 5142645, 59, -85710]
+I[2, 31535999, 364, -525599]
+I[3, 0, 0, 0]

query
SELECT id, TIMESTAMPADD(WEEK, 2, ts), TIMESTAMPDIFF(WEEK, TIMESTAMP '2026-01-01 00:00:00', ts), TIMESTAMPDIFF(HOUR, ts, TIMESTAMPADD(MINUTE, 150, ts)) FROM events WHERE id = 1
----
+I[1, 2026-03-15T12:30:45.250Z, 8, 2]

query
SELECT id, EXTRACT(HOUR FROM TO_TIMESTAMP(text)), DATE_FORMAT(TIMESTAMPADD(MINUTE, 90, TO_TIMESTAMP(text)), 'HH:mm') FROM events WHERE id = 1
----
+I[1, 12, 14:00]

error
SELECT TIMESTAMPADD(MONTH, 1, ts) FROM events
----
year-month intervals

error
SELECT DATE_FORMAT(ts, 'yyyy-{') FROM events
----
line 1, column 1: the date-time pattern 'yyyy-{' is invalid

# CURRENT_WATERMARK is null until the operator has seen a watermark: here all rows come in the source's first poll.
query
SELECT id, CURRENT_WATERMARK(ts) FROM events
----
+I[1, null]
+I[2, null]
+I[3, null]

error
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND)) WHERE ts > CURRENT_WATERMARK(ts) GROUP BY window_start, window_end
----
CURRENT_WATERMARK in the WHERE of a window aggregation is not supported yet
