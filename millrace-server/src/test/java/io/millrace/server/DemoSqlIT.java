package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The demo's pipeline in SQL ({@code src/main/resources/sql/demo.sql}) runs with {@code millrace sql -f}, and its
 * per-minute maximum temperatures equal a batch recomputation over the simulator's events.
 */
class DemoSqlIT {
    static final Path DEMO = Path.of("src/main/resources/sql/demo.sql");

    @Test
    void demoSql_runsWithSqlDashF_andItsHottestMinutesEqualABatchRecomputation() throws Exception {
        String file = Files.readString(DEMO);
        assertThat(file).contains("'machines' = '8'", "'seed' = '42'", "'events-per-second' = '200'", "'max-events' = '100000'",
                "'late-fraction' = '0'");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            exit = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "sql", "-f", DEMO.toString(), "--parallelism", "2");
        } finally {
            System.setOut(stdout);
        }
        assertThat(exit).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("Job 'statement-set' finished");
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();

        Map<String, String> sql = new TreeMap<>();
        java.util.regex.Pattern hottest = java.util.regex.Pattern.compile("temperature 1 min max> (?:\\d+> )?\\+I\\[(.*)]");
        for (String line : lines) {
            java.util.regex.Matcher m = hottest.matcher(line);
            if (m.matches()) {   // "<identifier>> <subtask>> +I[...]" at parallelism 2, as Flink's print connector writes
                String[] f = m.group(1).split(", ", -1);
                assertThat(sql.put(f[0] + " " + f[1], f[2] + " " + f[3] + " " + f[4])).as("one row per machine and minute").isNull();
            }
        }
        assertThat(lines.stream().filter(l -> l.matches("vibration 5 min avg> (\\d+> )?\\+I\\[M\\d+, .*"))).isNotEmpty();

        Map<String, String> batch = new TreeMap<>();
        Map<String, double[]> minutes = new TreeMap<>();
        for (SensorReading r : readings()) {
            if (r.sensor() == Sensor.TEMPERATURE) {
                long end = Math.floorDiv(r.eventTime(), 60_000L) * 60_000L + 60_000L;
                double[] acc = minutes.computeIfAbsent(r.machineId() + " " + Instant.ofEpochMilli(end), k -> new double[] {Double.NEGATIVE_INFINITY, 0});
                acc[0] = Math.max(acc[0], r.value());
                acc[1]++;
            }
        }
        minutes.forEach((k, acc) -> batch.put(k, acc[0] + " " + (acc[0] >= 85 ? "!" : "") + " " + (long) acc[1]));
        assertThat(batch).hasSizeGreaterThan(50);
        assertThat(sql).isEqualTo(batch);
    }

    @Test
    void theDemoInDocsSql_isTheShippedFile() throws Exception {
        String body = String.join("\n", Files.readAllLines(DEMO).stream().filter(l -> !l.startsWith("--")).toList()).strip();
        Path docs = Path.of("").toAbsolutePath();
        while (!Files.exists(docs.resolve("docs/sql.md"))) {
            docs = docs.getParent();
        }
        assertThat(Files.readString(docs.resolve("docs/sql.md"))).contains("<!-- sql-example -->\n```sql\n" + body + "\n```");
    }

    /** The readings of the simulator configured as demo.sql configures it. */
    private static List<SensorReading> readings() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().machines(8).seed(42).eventsPerSecond(200).maxEvents(100_000).lateFraction(0)
                .unlimitedSpeed().build();
        Pipeline p = Pipeline.create(PipelineConfig.defaults().parallelism(2)); // as the SQL job: max-events is split over the source subtasks
        CollectSink<FactoryEvent> events = new CollectSink<>();
        p.fromSource(new FactorySimulator(config), WatermarkStrategy.noWatermarks(), "factory").sinkTo(events);
        p.execute("demo events");
        List<SensorReading> readings = new ArrayList<>();
        for (FactoryEvent e : events.results()) {
            if (e instanceof SensorReading r) {
                readings.add(r);
            }
        }
        assertThat(readings).hasSizeGreaterThan(50_000);
        return readings;
    }
}
