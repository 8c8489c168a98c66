package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code millrace demo --mqtt [--sparkplug]}: a Mosquitto broker started by the command (Debian's package), the feed
 * published at QoS 1, read back by the MQTT source with acknowledgements after checkpoints.
 */
class DemoMqttIT {

    @Test
    void demoMqtt_json_startsMosquitto_publishesEveryEvent_andReadsEachBack() {
        String out = demo("--mqtt");
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).startsWith("Millrace demo: 4 machines").endsWith("through MQTT");
        assertThat(lines).anyMatch(l -> l.matches("MQTT: broker at 127\\.0\\.0\\.1:\\d+, JSON to factory/# at QoS 1"));
        assertEveryMessageReadAndWindowed(out, "JSON");
    }

    @Test
    void demoMqtt_sparkplug_publishesBirthsAndData_andTheAliasesResolveToTheMachinesMetrics() {
        String out = demo("--mqtt", "--sparkplug");
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).endsWith("through MQTT (Sparkplug B)");
        assertThat(lines).anyMatch(l -> l.matches("MQTT: broker at 127\\.0\\.0\\.1:\\d+, Sparkplug B to spBv1\\.0/factory/# at QoS 1"));
        // the data messages name their metric by alias only: windows per sensor need the births' names
        assertEveryMessageReadAndWindowed(out, "Sparkplug B");
    }

    @Test
    void demoMqtt_withoutTheBroker_namesThePackageToInstall() {
        PrintStream originalErr = System.err;
        PrintStream originalOut = System.out;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8);
             PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            System.setOut(discard);
            exit = Main.run("demo", "--mqtt", "--mosquitto", "/nonexistent/sbin/mosquitto", "--duration", "2s");
        } finally {
            System.setErr(originalErr);
            System.setOut(originalOut);
        }
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("/nonexistent/sbin/mosquitto").contains("package 'mosquitto'")
                .contains("apt-get install mosquitto");
    }

    @Test
    void sparkplug_withoutMqtt_isAUsageError() {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            exit = Main.run("demo", "--sparkplug");
        } finally {
            System.setErr(originalErr);
        }
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--sparkplug needs --mqtt");
    }

    private static void assertEveryMessageReadAndWindowed(String out, String payload) {
        List<String> lines = out.lines().toList();
        assertThat(lines).anyMatch(l -> l.contains("vibration avg 5 min") && l.contains("M001") && l.contains("M004") && l.endsWith("mm/s"));
        assertThat(lines).anyMatch(l -> l.contains("max temperature 1 min") && l.endsWith("°C"));
        assertThat(lines).anyMatch(l -> l.contains("run cycle M00"));
        assertThat(out).contains("Summary\n").doesNotContain("stopped early");

        Matcher mqtt = Pattern.compile("mqtt\\s+([\\d,]+) messages published to 127\\.0\\.0\\.1:\\d+ \\(" + Pattern.quote(payload)
                + ", QoS 1\\), ([\\d,]+) read back, (\\d+) checkpoints").matcher(out);
        assertThat(mqtt.find()).as("the MQTT summary line in:%n%s", out).isTrue();
        long published = number(mqtt.group(1));
        long read = number(mqtt.group(2));
        assertThat(published).isGreaterThan(10_000);
        assertThat(read).isEqualTo(published);
        // QoS 1 messages are acknowledged only at completed checkpoints: reading them all took some
        assertThat(Long.parseLong(mqtt.group(3))).isPositive();

        Matcher events = Pattern.compile("events\\s+([\\d,]+) in").matcher(out);
        assertThat(events.find()).isTrue();
        assertThat(number(events.group(1))).isEqualTo(published);
    }

    private static String demo(String... transport) {
        List<String> args = new java.util.ArrayList<>(List.of("demo"));
        args.addAll(List.of(transport));
        args.addAll(List.of("--duration", "4s", "--speedup", "120", "--rate", "12000", "--machines", "4", "--seed", "7",
                "--status-every", "1s", "--parallelism", "2"));
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            exit = Main.run(args.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("exit code; output:%n%s", out).isZero();
        return out;
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }
}
