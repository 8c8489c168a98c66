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
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows too late for their windows go to the dead-letter table named by the source table's {@code 'late-rows.table'}
 * option, with the reason and the watermark at the time; the windows hold exactly the rows that were on time. The
 * file source emits a watermark after each poll of at most 512 lines, so rows far behind after the first 512 lines
 * are late for certain.
 */
class LateRowsTest {
    private static final long BASE = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void lateRowsOfAWindowedQuery_goToTheDeadLetterTable(int parallelism) throws IOException {
        List<String> lines = new ArrayList<>();
        Map<String, long[]> expected = new TreeMap<>();
        for (int i = 0; i < 700; i++) {
            long ts = BASE + i * 100L;
            String machine = "m" + i % 3;
            lines.add("{\"machine\":\"" + machine + "\",\"v\":" + i + ",\"ts\":" + ts + "}");
            long start = ts - Math.floorMod(ts, 10_000);
            expected.computeIfAbsent(Instant.ofEpochMilli(start) + ", " + machine, k -> new long[2]);
            expected.get(Instant.ofEpochMilli(start) + ", " + machine)[0]++;
            expected.get(Instant.ofEpochMilli(start) + ", " + machine)[1] += i;
            if (i == 600 || i == 650) {
                lines.add("{\"machine\":\"m9\",\"v\":-" + i + ",\"ts\":" + (BASE + 1000 + i) + "}"); // 50 s behind: late
            }
        }
        Files.write(dir.resolve("readings.jsonl"), lines);
        Path late = dir.resolve("late");
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(parallelism));
        // tag::late-rows[]
        sql.executeScript("""
                CREATE TABLE readings (machine STRING, v INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
                WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json', 'late-rows.table' = 'late_readings');
                CREATE TABLE late_readings (`row` STRING, reason STRING, event_time TIMESTAMP_LTZ(3), `watermark` TIMESTAMP_LTZ(3))
                WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');
                """.formatted(dir.resolve("readings.jsonl"), late));
        List<Row> sums = sql.query("""
                SELECT window_start, machine, COUNT(*), SUM(v)
                FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND))
                GROUP BY window_start, window_end, machine
                """);
        // end::late-rows[]
        List<String> want = new ArrayList<>();
        expected.forEach((k, a) -> want.add("+I[" + k + ", " + a[0] + ", " + a[1] + "]"));
        assertThat(sums.stream().map(Row::toString).sorted().toList()).containsExactlyElementsOf(want);

        List<String> deadLetters = new ArrayList<>();
        try (Stream<Path> files = Files.list(late)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
                deadLetters.addAll(Files.readAllLines(f));
            }
        }
        deadLetters.sort(null);
        assertThat(deadLetters).hasSize(2);
        assertThat(deadLetters.get(0)).contains("\"row\":\"{\\\"machine\\\":\\\"m9\\\",\\\"v\\\":-600,\\\"ts\\\":")
                .contains("\"event_time\":" + (BASE + 1600)).contains("late: event time 2026-01-01T00:00:01.600Z is at or behind the watermark");
        assertThat(deadLetters.get(1)).contains("\"v\\\":-650").contains("\"event_time\":" + (BASE + 1650));
        for (String d : deadLetters) {
            long watermark = Long.parseLong(d.replaceAll(".*\"watermark\":(\\d+).*", "$1"));
            assertThat(watermark).as(d).isBetween(BASE + 10_000, BASE + 70_000);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void currentWatermark_findsTheRowsBehindIt(int parallelism) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            lines.add("{\"machine\":\"m" + i % 3 + "\",\"v\":" + i + ",\"ts\":" + (BASE + i * 100L) + "}");
            if (i == 600 || i == 650) {
                lines.add("{\"machine\":\"m9\",\"v\":-" + i + ",\"ts\":" + (BASE + 1000 + i) + "}");
            }
        }
        Files.write(dir.resolve("readings.jsonl"), lines);
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(parallelism));
        sql.execute("CREATE TABLE readings (machine STRING, v INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) "
                + "WITH ('connector' = 'filesystem', 'path' = '" + dir.resolve("readings.jsonl") + "', 'format' = 'json')");
        List<Row> behind = sql.query("SELECT machine, v, CURRENT_WATERMARK(ts) FROM readings WHERE ts <= CURRENT_WATERMARK(ts)");
        assertThat(behind.stream().map(Row::toString).sorted().toList())
                .containsExactly("+I[m9, -600, 2026-01-01T00:00:49.100Z]", "+I[m9, -650, 2026-01-01T00:00:49.100Z]");
        // before the first watermark (the first poll of 512 lines) it is null
        List<Row> first = sql.query("SELECT v FROM readings WHERE CURRENT_WATERMARK(ts) IS NULL");
        assertThat(first).hasSize(512);
    }
}
