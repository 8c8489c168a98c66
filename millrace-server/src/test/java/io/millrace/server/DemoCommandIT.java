package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DemoCommandIT {

    private static String runCli(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            exit = Main.run(args);
        } finally {
            System.setOut(original);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("exit code; output:%n%s", out).isZero();
        return out;
    }

    @Test
    void demo_printsWindowResultsRunCyclesStatusAndSummary() {
        String out = runCli("demo", "--duration", "3s", "--speedup", "120", "--rate", "12000", "--machines", "4",
                "--seed", "7", "--status-every", "1s", "--parallelism", "2");
        List<String> lines = out.lines().toList();

        assertThat(lines.get(0)).startsWith("Millrace demo: 4 machines");
        assertThat(lines).anyMatch(l -> l.contains("vibration avg 5 min") && l.contains("M001") && l.endsWith("mm/s"));
        assertThat(lines).anyMatch(l -> l.contains("max temperature 1 min") && l.endsWith("°C"));
        assertThat(lines).anyMatch(l -> l.contains("run cycle M00"));
        assertThat(lines).anyMatch(l -> l.startsWith("status "));
        assertThat(out).contains("Summary");

        Matcher alerts = Pattern.compile("alerts\\s+([\\d,]+) fired \\(([\\d,]+) repeat matches not printed\\): ([\\d,]+) of ([\\d,]+) anomalies detected, ([\\d,]+) false alarms")
                .matcher(out);
        assertThat(alerts.find()).as("alerts line in%n%s", out).isTrue();
        assertThat(alerts.group(3)).as("detected").isEqualTo(alerts.group(4));
        assertThat(alerts.group(5)).as("false alarms").isEqualTo("0");
        assertThat(lines.stream().filter(l -> l.contains(" ALERT M00")).count()).as("alert lines").isEqualTo(Long.parseLong(alerts.group(1)));

        Matcher events = Pattern.compile("events\\s+([\\d,]+) in").matcher(out);
        assertThat(events.find()).isTrue();
        assertThat(Long.parseLong(events.group(1).replace(",", ""))).isGreaterThan(1_000);

        // 4 machines over 6 simulated minutes: 6 one-minute temperature windows and 12 sliding vibration slides at least
        long temperatureLines = lines.stream().filter(l -> l.contains("max temperature 1 min")).count();
        long vibrationLines = lines.stream().filter(l -> l.contains("vibration avg 5 min")).count();
        assertThat(temperatureLines).isGreaterThanOrEqualTo(5);
        assertThat(vibrationLines).isGreaterThanOrEqualTo(10);
    }

    @Test
    void demo_withBadOption_failsNamingIt() {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            exit = Main.run("demo", "--duration", "soon");
        } finally {
            System.setErr(originalErr);
        }
        assertThat(exit).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--duration").contains("soon");
    }
}
