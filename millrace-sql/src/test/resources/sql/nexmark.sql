# The nexmark connector: a table of some of the benchmark's columns, its description, q2 of the benchmark over it
# (the rows are those of NexmarkGenerator's events 0 to 2999; NexmarkSqlTest recomputes q0, q1, q2, q5 and q7 in
# full), and errors naming what is not in the benchmark's schema.
statement ok
CREATE TABLE nexmark (
  event_type INT,
  bid ROW<auction BIGINT, price BIGINT, dateTime TIMESTAMP(3)>,
  dateTime AS bid.dateTime
) WITH ('connector' = 'nexmark', 'first-event.rate' = '1000', 'events.num' = '3000', 'speedup' = 'unlimited');
CREATE VIEW bid AS SELECT bid.auction, bid.price, dateTime FROM nexmark WHERE event_type = 2

query
DESCRIBE bid
----
+I[auction, BIGINT, true, null, null, null]
+I[price, BIGINT, true, null, null, null]
+I[dateTime, TIMESTAMP(3), true, null, null, null]

query
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0
----
+I[1107, 1258]
+I[1107, 20982]
+I[1107, 1027]
+I[1107, 14702]
+I[1107, 1441]
+I[1107, 2919]
+I[1107, 23154]
+I[1107, 19377332]

error
CREATE TABLE n2 (person ROW<id BIGINT, age INT>) WITH ('connector' = 'nexmark')
----
line 1, column 1: table 'n2' (connector 'nexmark'): person has no field 'age'; its fields are [id, name, emailAddress, creditCard, city, state, dateTime, extra]

error
CREATE TABLE n2 (event_type BIGINT) WITH ('connector' = 'nexmark')
----
column 'event_type' is INT, not BIGINT

error
CREATE TABLE n2 (event_type INT) WITH ('connector' = 'nexmark', 'events' = '10')
----
events

error
SELECT dateTime, nosuch FROM bid
----
line 1, column 18: Column 'nosuch' not found
