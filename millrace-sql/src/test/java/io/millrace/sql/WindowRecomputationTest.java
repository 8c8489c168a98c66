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
}
