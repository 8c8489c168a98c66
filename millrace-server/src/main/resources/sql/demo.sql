-- The factory-floor demo's pipeline in SQL, over the factory simulator:
--   ./millrace sql -f millrace-server/src/main/resources/sql/demo.sql
-- Per machine: the 5-minute average of vibration every 30 seconds, and the highest temperature of each minute
-- (85 degrees and more marked '!'). One job (a statement set) reads the simulated factory once for both.

CREATE TABLE factory (
  machine_id STRING,
  sensor STRING,
  `value` DOUBLE,
  event_time TIMESTAMP_LTZ(3),
  WATERMARK FOR event_time AS event_time - INTERVAL '2' SECOND
) WITH (
  'connector' = 'factory-simulator',
  'machines' = '8',
  'seed' = '42',
  'events-per-second' = '200',
  'max-events' = '100000',
  'late-fraction' = '0',
  'speedup' = 'unlimited'
);

CREATE TABLE vibration_averages (
  machine_id STRING,
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  average DOUBLE,
  readings BIGINT
) WITH ('connector' = 'print', 'print-identifier' = 'vibration 5 min avg');

CREATE TABLE hottest_minutes (
  machine_id STRING,
  minute_end TIMESTAMP(3),
  max_temperature DOUBLE,
  alarm STRING,
  readings BIGINT
) WITH ('connector' = 'print', 'print-identifier' = 'temperature 1 min max');

EXECUTE STATEMENT SET
BEGIN
  INSERT INTO vibration_averages
  SELECT machine_id, window_start, window_end, AVG(`value`), COUNT(*)
  FROM TABLE(HOP(TABLE factory, DESCRIPTOR(event_time), INTERVAL '30' SECOND, INTERVAL '5' MINUTE))
  WHERE sensor = 'vibration'
  GROUP BY window_start, window_end, machine_id;

  INSERT INTO hottest_minutes
  SELECT machine_id, window_end, MAX(`value`), CASE WHEN MAX(`value`) >= 85 THEN '!' ELSE '' END, COUNT(*)
  FROM TABLE(TUMBLE(TABLE factory, DESCRIPTOR(event_time), INTERVAL '1' MINUTE))
  WHERE sensor = 'temperature'
  GROUP BY window_start, window_end, machine_id;
END;
