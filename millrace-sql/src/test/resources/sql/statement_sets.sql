# Several INSERT statements as one job: EXECUTE STATEMENT SET BEGIN ... END and BEGIN STATEMENT SET; ... END;
data readings.jsonl
{"machine":"m1","temp":70.5}
{"machine":"m2","temp":90.0}
{"machine":"m1","temp":88.0}
{"machine":"m3","temp":60.0}

statement ok
CREATE TABLE readings (machine STRING, temp DOUBLE) WITH ('connector' = 'filesystem', 'path' = '${data}/readings.jsonl', 'format' = 'json');
CREATE TABLE hot (machine STRING, temp DOUBLE) WITH ('connector' = 'filesystem', 'path' = '${data}/hot', 'format' = 'json');
CREATE TABLE cold (machine STRING) WITH ('connector' = 'filesystem', 'path' = '${data}/cold', 'format' = 'json');
CREATE TABLE upper_machines (machine STRING) WITH ('connector' = 'filesystem', 'path' = '${data}/upper', 'format' = 'json');
CREATE TABLE hot_machines (machine STRING) WITH ('connector' = 'filesystem', 'path' = '${data}/hot-machines', 'format' = 'json')

statement ok
EXECUTE STATEMENT SET
BEGIN
INSERT INTO hot SELECT machine, temp FROM readings WHERE temp >= 85;
INSERT INTO cold SELECT machine FROM readings WHERE temp < 85;
END;

query
SELECT machine, temp FROM hot
----
+I[m2, 90.0]
+I[m1, 88.0]

query
SELECT machine FROM cold
----
+I[m1]
+I[m3]

# the form of Flink's SQL client: BEGIN STATEMENT SET; then the inserts, then END;
statement ok
BEGIN STATEMENT SET;
INSERT INTO upper_machines SELECT UPPER(machine) FROM readings;
INSERT INTO hot_machines SELECT machine FROM readings WHERE temp > 80;
END;

query
SELECT machine FROM upper_machines
----
+I[M1]
+I[M2]
+I[M1]
+I[M3]

query
SELECT machine FROM hot_machines
----
+I[m2]
+I[m1]

error
EXECUTE STATEMENT SET BEGIN
INSERT INTO hot SELECT machine, temp FROM readings;
SELECT machine FROM readings;
END;
----
line 3, column 1: a statement set holds INSERT INTO statements only, found 'SELECT'

error
EXECUTE STATEMENT SET BEGIN
INSERT INTO cold SELECT machine FROM readings;
----
has no END: write END; after its INSERT statements

error
EXECUTE STATEMENT SET BEGIN
INSERT INTO cold SELECT temp FROM readings;
END;
----
line 2, column 18: column 1 of the query ('temp', DOUBLE) does not fit column 'machine' (STRING) of table 'cold': CAST it

error
END;
----
line 1, column 1: END without BEGIN STATEMENT SET

# the statement set stays open after this error, so it comes last
error
BEGIN STATEMENT SET;
DROP TABLE hot;
----
line 2, column 1: between BEGIN STATEMENT SET and END only INSERT INTO statements are allowed
