package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code millrace demo --kafka}: a local broker started by the command, the feed through a topic, read back. */
class DemoKafkaIT {

    @Test
    void demoKafka_startsALocalBroker_feedsTheTopic_andReadsEveryEventBack() {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            exit = Main.run("demo", "--kafka", "--duration", "4s", "--speedup", "120", "--rate", "12000", "--machines", "4",
                    "--seed", "7", "--status-every", "1s", "--parallelism", "2", "--topic", "demo-it-events");
        } finally {
            System.setOut(original);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("exit code; output:%n%s", out).isZero();
        List<String> lines = out.lines().toList();

        assertThat(lines.get(0)).startsWith("Millrace demo: 4 machines").endsWith("through Kafka");
        assertThat(lines).anyMatch(l -> l.startsWith("Kafka: local broker at 127.0.0.1:"));
        assertThat(lines).anyMatch(l -> l.equals("Kafka: created topic demo-it-events with 2 partitions"));
        assertThat(lines).anyMatch(l -> l.contains("vibration avg 5 min") && l.endsWith("mm/s"));
        assertThat(lines).anyMatch(l -> l.contains("max temperature 1 min") && l.endsWith("°C"));
        assertThat(lines).anyMatch(l -> l.contains("run cycle M00"));
        assertThat(out).contains("Summary\n").doesNotContain("stopped early");

        Matcher kafka = Pattern.compile("kafka\\s+([\\d,]+) events written to demo-it-events on 127\\.0\\.0\\.1:\\d+, ([\\d,]+) read back")
                .matcher(out);
        assertThat(kafka.find()).as("the Kafka summary line in:%n%s", out).isTrue();
        long written = Long.parseLong(kafka.group(1).replace(",", ""));
        long read = Long.parseLong(kafka.group(2).replace(",", ""));
        assertThat(written).isGreaterThan(1_000);
        assertThat(read).isEqualTo(written);

        Matcher events = Pattern.compile("events\\s+([\\d,]+) in").matcher(out);
        assertThat(events.find()).isTrue();
        assertThat(Long.parseLong(events.group(1).replace(",", ""))).isEqualTo(written);
    }

    @Test
    void bootstrapServers_withoutKafka_isAUsageError() {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            exit = Main.run("demo", "--bootstrap-servers", "127.0.0.1:9092");
        } finally {
            System.setErr(originalErr);
        }
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--bootstrap-servers needs --kafka");
    }
}
