# Nested ROW columns: both DDL spellings, field access in queries and computed columns, the ROW constructor,
# nested JSON objects read and written, DESCRIBE.
data orders.jsonl
{"id":1,"customer":{"name":"ana","address":{"city":"Porto","zip":"4000"}},"qty":3}
{"id":2,"customer":{"name":"bo","address":null},"qty":10}
{"id":3,"customer":null,"qty":1}

statement ok
CREATE TABLE orders (
  id BIGINT,
  customer ROW<name STRING, address ROW(city STRING, zip STRING)>,
  qty INT,
  who AS customer.name,
  city AS customer.address.city
) WITH ('connector' = 'filesystem', 'path' = '${data}/orders.jsonl', 'format' = 'json')

query
SELECT id, customer.name, orders.customer.address.zip, who, city FROM orders
----
+I[1, ana, 4000, ana, Porto]
+I[2, bo, null, bo, null]
+I[3, null, null, null, null]

query
SELECT id, customer, customer.address FROM orders WHERE customer.name <> 'bo'
----
+I[1, [ana, [Porto, 4000]], [Porto, 4000]]

query
SELECT id, ROW(who, qty * 2) AS pair FROM orders WHERE id < 3
----
+I[1, [ana, 6]]
+I[2, [bo, 20]]

query
SELECT t.id, t.pair.`EXPR$1` FROM (SELECT id, ROW(who, qty * 2) AS pair FROM orders) AS t WHERE t.id = 2
----
+I[2, 20]

statement ok
CREATE TABLE copies (id BIGINT, customer ROW<name STRING, address ROW<city STRING, zip STRING>>)
WITH ('connector' = 'filesystem', 'path' = '${data}/copies', 'format' = 'json');
INSERT INTO copies SELECT id, customer FROM orders

query
SELECT id, customer.address.city FROM copies
----
+I[1, Porto]
+I[2, null]
+I[3, null]

statement ok
CREATE TABLE labels (id BIGINT, label ROW<who STRING, n INT>) WITH ('connector' = 'filesystem', 'path' = '${data}/labels', 'format' = 'json');
INSERT INTO labels SELECT id, ROW(who, qty) FROM orders

query
SELECT id, label.who, label.n FROM labels
----
+I[1, ana, 3]
+I[2, bo, 10]
+I[3, null, 1]

query
DESCRIBE orders
----
+I[id, BIGINT, true, null, null, null]
+I[customer, ROW<`name` STRING, `address` ROW<`city` STRING, `zip` STRING>>, true, null, null, null]
+I[qty, INT, true, null, null, null]
+I[who, STRING, true, null, AS customer.name, null]
+I[city, STRING, true, null, AS customer.address.city, null]

error
SELECT customer.colour FROM orders
----
colour

error
CREATE TABLE bad (r ROW<a INT, a STRING>) WITH ('connector' = 'blackhole')
----
line 1, column 32: the ROW has two fields named 'a'

error
CREATE TABLE bad (r ROW<a INT) WITH ('connector' = 'blackhole')
----
line 1, column 30: expected '>', found ')'
