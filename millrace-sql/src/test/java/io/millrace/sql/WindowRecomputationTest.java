package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Window aggregations over rows out of order (within the watermark's bound), read from several files in parallel,
 * equal a batch recomputation of the same rows, at parallelism 1 and 4.
 */
class WindowRecomputationTest {
    private static final long BASE = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final int ROWS = 4000;

    @TempDir
    Path dir;

    record Reading(String machine, double value, long ts) {}

    private List<Reading> writeReadings(long seed) throws IOException {
        Random random = new Random(seed);
        List<Reading> all = new ArrayList<>();
        List<List<String>> files = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < ROWS; i++) {
            Reading r = new Reading("m" + random.nextInt(5), random.nextInt(1000), BASE + i * 10L - random.nextInt(2000));
            all.add(r);
            files.get(i % 4).add("{\"machine\":\"" + r.machine() + "\",\"v\":" + r.value() + ",\"ts\":" + r.ts() + "}");
        }
        Path data = Files.createDirectories(dir.resolve("readings"));
        for (int f = 0; f < files.size(); f++) {
            Files.write(data.resolve("part-" + f + ".jsonl"), files.get(f));
        }
        return all;
    }

    private static SqlSession session(int parallelism, Path data) {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(parallelism));
        sql.execute("CREATE TABLE readings (machine STRING, v DOUBLE, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) "
                + "WITH ('connector' = 'filesystem', 'path' = '" + data + "', 'format' = 'json')");
        return sql;
    }

    /** Per window (start) and machine: count, sum, min, max. */
    private static List<String> batch(List<Reading> rows, long size, long slide) {
        Map<String, double[]> acc = new TreeMap<>();
        for (Reading r : rows) {
            long last = r.ts() - Math.floorMod(r.ts(), slide);
            for (long start = last; start > r.ts() - size; start -= slide) {
                double[] a = acc.computeIfAbsent(start + "|" + r.machine(), k -> new double[] {0, 0, Double.MAX_VALUE, -Double.MAX_VALUE});
                a[0]++;
                a[1] += r.value();
                a[2] = Math.min(a[2], r.value());
                a[3] = Math.max(a[3], r.value());
            }
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : acc.entrySet()) {
            String[] k = e.getKey().split("\\|");
            long start = Long.parseLong(k[0]);
            double[] a = e.getValue();
            out.add("+I[" + Instant.ofEpochMilli(start) + ", " + Instant.ofEpochMilli(start + size) + ", " + k[1] + ", " + (long) a[0] + ", "
                    + a[1] + ", " + a[2] + ", " + a[3] + ", " + a[1] / a[0] + "]");
        }
        out.sort(null);
        return out;
    }

    private static List<String> sorted(List<Row> rows) {
        List<String> s = new ArrayList<>(rows.stream().map(Row::toString).toList());
        s.sort(null);
        return s;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void tumblingWindowAggregation_underDisorder_equalsBatchRecomputation(int parallelism) throws IOException {
        List<Reading> rows = writeReadings(7L + parallelism);
        List<Row> result = session(parallelism, dir.resolve("readings")).query(
                "SELECT window_start, window_end, machine, COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v) "
                        + "FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, machine");
        List<String> expected = batch(rows, 1000, 1000);
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(sorted(result)).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void hoppingWindowAggregation_underDisorder_equalsBatchRecomputation(int parallelism) throws IOException {
        List<Reading> rows = writeReadings(11L + parallelism);
        List<Row> result = session(parallelism, dir.resolve("readings")).query(
                "SELECT window_start, window_end, machine, COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v) "
                        + "FROM TABLE(HOP(TABLE readings, DESCRIPTOR(ts), INTERVAL '0.5' SECOND, INTERVAL '2' SECOND)) "
                        + "GROUP BY window_start, window_end, machine");
        List<String> expected = batch(rows, 2000, 500);
        assertThat(sorted(result)).containsExactlyElementsOf(expected);
    }

    /** Per (window, machine) as {@code window(row)} places rows: count, sum, min, max, average. */
    private static List<String> batch(List<Reading> rows, java.util.function.Function<Reading, List<long[]>> windows) {
        Map<String, double[]> acc = new TreeMap<>();
        for (Reading r : rows) {
            for (long[] w : windows.apply(r)) {
                double[] a = acc.computeIfAbsent(w[0] + "|" + w[1] + "|" + r.machine(), k -> new double[] {0, 0, Double.MAX_VALUE, -Double.MAX_VALUE});
                a[0]++;
                a[1] += r.value();
                a[2] = Math.min(a[2], r.value());
                a[3] = Math.max(a[3], r.value());
            }
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : acc.entrySet()) {
            String[] k = e.getKey().split("\\|");
            double[] a = e.getValue();
            out.add("+I[" + Instant.ofEpochMilli(Long.parseLong(k[0])) + ", " + Instant.ofEpochMilli(Long.parseLong(k[1])) + ", " + k[2] + ", "
                    + (long) a[0] + ", " + a[1] + ", " + a[2] + ", " + a[3] + ", " + a[1] / a[0] + "]");
        }
        out.sort(null);
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void cumulativeWindowAggregation_underDisorder_equalsBatchRecomputation(int parallelism) throws IOException {
        List<Reading> rows = writeReadings(13L + parallelism);
        List<Row> result = session(parallelism, dir.resolve("readings")).query(
                "SELECT window_start, window_end, machine, COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v) "
                        + "FROM TABLE(CUMULATE(TABLE readings, DESCRIPTOR(ts), INTERVAL '0.5' SECOND, INTERVAL '3' SECOND)) "
                        + "GROUP BY window_start, window_end, machine");
        List<String> expected = batch(rows, r -> {
            long start = r.ts() - Math.floorMod(r.ts(), 3000);
            List<long[]> w = new ArrayList<>();
            for (long end = r.ts() - Math.floorMod(r.ts(), 500) + 500; end <= start + 3000; end += 500) {
                w.add(new long[] {start, end});
            }
            return w;
        });
        assertThat(expected).hasSizeGreaterThan(300);
        assertThat(sorted(result)).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void sessionWindowAggregation_underDisorder_equalsBatchRecomputation(int parallelism) throws IOException {
        List<Reading> rows = writeReadings(17L + parallelism);
        long gap = 40;
        List<Row> result = session(parallelism, dir.resolve("readings")).query(
                "SELECT window_start, window_end, machine, COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v) "
                        + "FROM TABLE(SESSION(TABLE readings PARTITION BY machine, DESCRIPTOR(ts), INTERVAL '0.04' SECOND)) "
                        + "GROUP BY window_start, window_end, machine");
        // batch: per machine, the rows in time order, a new session where the next row is more than the gap after the last
        Map<String, List<Long>> times = new TreeMap<>();
        for (Reading r : rows) {
            times.computeIfAbsent(r.machine(), k -> new ArrayList<>()).add(r.ts());
        }
        Map<String, long[]> sessionOf = new java.util.HashMap<>();
        for (Map.Entry<String, List<Long>> e : times.entrySet()) {
            List<Long> ts = e.getValue();
            ts.sort(null);
            int from = 0;
            for (int i = 1; i <= ts.size(); i++) {
                if (i == ts.size() || ts.get(i) - ts.get(i - 1) > gap) {
                    long[] w = {ts.get(from), ts.get(i - 1) + gap};
                    for (int j = from; j < i; j++) {
                        sessionOf.put(e.getKey() + "@" + ts.get(j), w);
                    }
                    from = i;
                }
            }
        }
        List<String> expected = batch(rows, r -> List.of(sessionOf.get(r.machine() + "@" + r.ts())));
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(sorted(result)).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void cascadedWindows_onWindowTime_equalBatchRecomputation(int parallelism) throws IOException {
        List<Reading> rows = writeReadings(19L + parallelism);
        SqlSession sql = session(parallelism, dir.resolve("readings"));
        sql.execute("CREATE VIEW per_second AS SELECT window_time AS wt, machine, COUNT(*) AS c, SUM(v) AS s, MIN(v) AS lo, MAX(v) AS hi "
                + "FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, window_time, machine");
        List<Row> result = sql.query("SELECT window_start, window_end, machine, SUM(c), SUM(s), MIN(lo), MAX(hi), SUM(s) / SUM(c) "
                + "FROM TABLE(TUMBLE(TABLE per_second, DESCRIPTOR(wt), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, machine");
        List<String> expected = batch(rows, r -> {
            long start = r.ts() - Math.floorMod(r.ts(), 5000);
            return List.<long[]>of(new long[] {start, start + 5000});
        });
        assertThat(expected).hasSizeGreaterThan(20);
        assertThat(sorted(result)).containsExactlyElementsOf(expected);
    }
}
