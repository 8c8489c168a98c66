# DECIMAL(p, s): exact arithmetic with Flink's result types, CAST, comparisons, window aggregates, JSON.
data prices.jsonl
{"item":"a","price":12.5,"qty":3,"ts":"2026-01-01T00:00:01Z"}
{"item":"b","price":"0.10","qty":10,"ts":"2026-01-01T00:00:02Z"}
{"item":"c","price":7,"qty":1,"ts":"2026-01-01T00:00:03Z"}
{"item":"d","price":null,"qty":2,"ts":"2026-01-01T00:00:04Z"}

statement ok
CREATE TABLE prices (
  item STRING,
  price DECIMAL(10, 2),
  qty INT,
  ts TIMESTAMP_LTZ(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${data}/prices.jsonl', 'format' = 'json')

query
SELECT item, price, price * qty, price + 1, price - 0.005, price / 3, -price FROM prices
----
+I[a, 12.50, 37.50, 13.50, 12.495, 4.1666666666667, -12.50]
+I[b, 0.10, 1.00, 1.10, 0.095, 0.0333333333333, -0.10]
+I[c, 7.00, 7.00, 8.00, 6.995, 2.3333333333333, -7.00]
+I[d, null, null, null, null, null, null]

query
SELECT item, CAST(price AS INT), CAST(price AS STRING), CAST(price AS DOUBLE), CAST(price AS DECIMAL(3, 1)), 0.908 * qty FROM prices WHERE item < 'd'
----
+I[a, 12, 12.50, 12.5, 12.5, 2.724]
+I[b, 0, 0.10, 0.1, 0.1, 9.080]
+I[c, 7, 7.00, 7.0, 7.0, 0.908]

query
SELECT item, CAST(price AS DECIMAL(3, 0)), CAST(price AS DECIMAL(2, 1)), CAST(CAST(price AS STRING) AS DECIMAL(5, 1)) FROM prices
----
+I[a, 13, null, 12.5]
+I[b, 0, 0.1, 0.1]
+I[c, 7, 7.0, 7.0]
+I[d, null, null, null]

error
SELECT CAST(12.5 AS DECIMAL(2, 1))
----
CAST of 12.5 to DECIMAL(2, 1) NOT NULL overflows: it has more than 1 digits before the point

query
SELECT item FROM prices WHERE price > 1.5 AND price <= 12.5 OR price = 0.1
----
+I[a]
+I[b]
+I[c]

query
SELECT ABS(-price), FLOOR(price), CEIL(price), ROUND(price, 1) FROM prices WHERE item = 'a'
----
+I[12.50, 12, 13, 12.50]

query
SELECT window_start, SUM(price), AVG(price), MIN(price), MAX(price), COUNT(price), COUNT(*)
FROM TABLE(TUMBLE(TABLE prices, DESCRIPTOR(ts), INTERVAL '1' HOUR))
GROUP BY window_start, window_end
----
+I[2026-01-01T00:00:00Z, 19.60, 6.533333, 0.10, 12.50, 3, 4]

query
SELECT price, COUNT(*)
FROM TABLE(TUMBLE(TABLE prices, DESCRIPTOR(ts), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, price
----
+I[0.10, 1]
+I[12.50, 1]
+I[7.00, 1]
+I[null, 1]

statement ok
CREATE TABLE totals (item STRING, total DECIMAL(12, 2)) WITH ('connector' = 'filesystem', 'path' = '${data}/out', 'format' = 'json');
INSERT INTO totals SELECT item, price * qty FROM prices

query
SELECT item, total FROM totals
----
+I[a, 37.50]
+I[b, 1.00]
+I[c, 7.00]
+I[d, null]

error
CREATE TABLE bad (p DECIMAL(40, 2)) WITH ('connector' = 'blackhole')
----
line 1, column 29: DECIMAL precision must be 1 to 38, was 40

error
CREATE TABLE bad (p DECIMAL(5, 6)) WITH ('connector' = 'blackhole')
----
line 1, column 32: DECIMAL scale must be 0 to the precision (5), was 6
