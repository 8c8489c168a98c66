package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code millrace demo --opcua}: the simulator's tags served by an OPC UA server the command starts, read by subscription. */
class DemoOpcUaIT {

    @Test
    void demoOpcUa_servesTheTags_subscribesToTheFactoryFolder_andWindowsTheChanges() {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            exit = Main.run("demo", "--opcua", "--duration", "4s", "--speedup", "120", "--rate", "12000", "--machines", "4",
                    "--seed", "7", "--status-every", "1s", "--parallelism", "2");
        } finally {
            System.setOut(original);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("exit code; output:%n%s", out).isZero();
        List<String> lines = out.lines().toList();

        assertThat(lines.get(0)).startsWith("Millrace demo: 4 machines").endsWith("through OPC UA");
        assertThat(lines).anyMatch(l -> l.matches("OPC UA: serving 16 tags at opc\\.tcp://127\\.0\\.0\\.1:\\d+/factory, folder ns=\\d+;s=Factory"));
        assertThat(lines).anyMatch(l -> l.contains("vibration avg 5 min") && l.contains("M001") && l.contains("M004") && l.endsWith("mm/s"));
        assertThat(lines).anyMatch(l -> l.contains("max temperature 1 min") && l.endsWith("°C"));
        assertThat(lines).anyMatch(l -> l.contains("run cycle M00"));
        assertThat(out).contains("Summary\n").doesNotContain("stopped early");

        Matcher opcua = Pattern.compile("opc ua\\s+([\\d,]+) simulator events written to 16 tags at opc\\.tcp://127\\.0\\.0\\.1:\\d+/factory, "
                + "([\\d,]+) changes read, ([\\d,]+) events made of them").matcher(out);
        assertThat(opcua.find()).as("the OPC UA summary line in:%n%s", out).isTrue();
        long written = number(opcua.group(1));
        long changes = number(opcua.group(2));
        long events = number(opcua.group(3));
        assertThat(written).isGreaterThan(10_000);
        // a tag keeps the latest value and is sampled every 10 ms: the subscription sees a sample of the writes
        assertThat(changes).isGreaterThan(200).isLessThan(written);
        assertThat(events).isGreaterThan(200).isLessThanOrEqualTo(changes);

        Matcher summary = Pattern.compile("events\\s+([\\d,]+) in").matcher(out);
        assertThat(summary.find()).isTrue();
        assertThat(number(summary.group(1))).isEqualTo(changes);
    }

    @Test
    void opcUa_withKafka_isAUsageError() {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            exit = Main.run("demo", "--opcua", "--kafka");
        } finally {
            System.setErr(originalErr);
        }
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("choose one of --kafka, --opcua and --mqtt");
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }
}
