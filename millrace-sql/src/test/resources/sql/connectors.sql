# Connector options and the filesystem connector's bad-row policy.
data mixed.jsonl
{"id":1,"name":"a"}
{"id":"two","name":"b"}
{"id":3,"name":"c"}

statement ok
CREATE TABLE strict (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '${data}/mixed.jsonl', 'format' = 'json')

error
SELECT id FROM strict
----
mixed.jsonl:2

statement ok
CREATE TABLE lenient (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '${data}/mixed.jsonl', 'format' = 'json', 'json.ignore-parse-errors' = 'true')

query
SELECT id, name FROM lenient
----
+I[1, a]
+I[3, c]

error
CREATE TABLE t2 (id INT) WITH ('connector' = 'filesystem', 'path' = '/x', 'format' = 'json', 'json.ignore-parse-errors' = 'maybe')
----
option 'json.ignore-parse-errors' = 'maybe' is invalid: expected true or false

statement ok
CREATE TABLE seq (id BIGINT, label STRING, ts TIMESTAMP(3)) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '10', 'fields.id.end' = '14', 'fields.label.length' = '3', 'fields.ts.start' = '2026-03-01 12:00:00', 'rows-per-second' = '2')

query
SELECT id, CHAR_LENGTH(label), ts FROM seq
----
+I[10, 3, 2026-03-01T12:00:00Z]
+I[11, 3, 2026-03-01T12:00:00.500Z]
+I[12, 3, 2026-03-01T12:00:01Z]
+I[13, 3, 2026-03-01T12:00:01.500Z]
+I[14, 3, 2026-03-01T12:00:02Z]

error
CREATE TABLE g (x DOUBLE) WITH ('connector' = 'datagen', 'fields.x.kind' = 'sequence')
----
option 'fields.x.kind' = 'sequence' is invalid: expected random for a DOUBLE field

error
CREATE TABLE g (x INT) WITH ('connector' = 'datagen', 'fields.x.min' = '10', 'fields.x.max' = '5')
----
option 'fields.x.max' = '5' is invalid

statement ok
CREATE TABLE sink (id INT, name STRING) WITH ('connector' = 'blackhole')

statement ok
INSERT INTO sink SELECT id, name FROM lenient

error
INSERT INTO sink SELECT name, id FROM lenient
----
column 1 of the query ('name', STRING) does not fit column 'id' (INT) of table 'sink': CAST it

error
INSERT INTO lenient2 SELECT id, name FROM lenient
----
line 1, column 1: no table named 'lenient2'

error
INSERT INTO seq SELECT id, label, ts FROM seq
----
cannot be written: it is a source only

statement ok
CREATE TABLE printed (id INT, name STRING) WITH ('connector' = 'print', 'print-identifier' = 'out')

statement ok
INSERT INTO printed SELECT id, UPPER(name) FROM lenient

query
SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS v(a, b) WHERE a > 1
----
+I[2, y]
