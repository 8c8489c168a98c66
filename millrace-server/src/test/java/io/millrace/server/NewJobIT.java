package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.server.newjob.JobTemplate;
import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user does with {@code millrace new-job}: writes the project, builds it with Maven (which runs its
 * harness and pipeline tests) and runs its jar under {@code millrace run}. Maven runs offline in a child process
 * against the local repository of this build, into which the test first installs this build's millrace-core.
 */
class NewJobIT {
    private static final long MAVEN_TIMEOUT_SECONDS = 100;
    private static final long JOB_TIMEOUT_SECONDS = 40;

    @TempDir
    Path tmp;

    @Test
    void generatedProject_buildsOfflineAndPassesItsTests_andItsJarRunsUnderMillraceRun() throws Exception {
        Path project = tmp.resolve("telemetry-job");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int written = Main.run(new PrintWriter(out), new PrintWriter(err),
                "new-job", project.toString(), "--group", "com.acme", "--package", "com.acme.plant");
        assertThat(written).as("new-job exit code; stderr: %s", err).isZero();

        Path repo = LocalMillraceInstall.localRepository();
        LocalMillraceInstall.install(repo, sourceRoot(), JobTemplate.millraceVersion());

        Path mavenLog = tmp.resolve("maven.log");
        int built = run(new ProcessBuilder(maven(), "-B", "-o", "-ntp", "-Dmaven.repo.local=" + repo, "package")
                .directory(project.toFile()), mavenLog, MAVEN_TIMEOUT_SECONDS);
        String log = Files.readString(mavenLog);
        assertThat(built).as("mvn -o package in %s:%n%s", project, log).isZero();
        assertThat(log).contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed")
                .contains("in com.acme.plant.OverheatAlertTest")
                .contains("in com.acme.plant.TemperatureJobTest")
                .contains("Tests run: 2, Failures: 0, Errors: 0, Skipped: 0");

        Path jar = project.resolve("target/telemetry-job-" + JobTemplate.PROJECT_VERSION + ".jar");
        List<String> entries;
        try (JarFile file = new JarFile(jar.toFile())) {
            entries = file.stream().map(ZipEntry::getName).toList();
            assertThat(file.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("com.acme.plant.TemperatureJob");
        }
        assertThat(entries).contains("com/acme/plant/TemperatureJob.class", "com/acme/plant/OverheatAlert.class")
                .noneMatch(e -> e.startsWith("io/millrace/"));

        Path jobLog = tmp.resolve("job.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int ran = run(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.millrace.server.Main",
                        "run", "--jar", jar.toString(), "--parallelism", "2", "--", "--input", "data/readings.jsonl")
                .directory(project.toFile()), jobLog, JOB_TIMEOUT_SECONDS);
        List<String> lines = Files.readAllLines(jobLog);
        assertThat(ran).as("millrace run output: %s", lines).isZero();

        List<String> minutes = new ArrayList<>();
        List<String> alerts = new ArrayList<>();
        for (String line : lines) {
            if (line.matches("minute \\d+> .*")) {
                minutes.add(line.substring(line.indexOf("> ") + 2));
            } else if (line.matches("alert \\d+> .*")) {
                alerts.add(line.substring(line.indexOf("> ") + 2));
            }
        }
        assertThat(minutes).as("minute lines of %s", lines)
                .containsExactlyInAnyOrderElementsOf(minuteStatsOf(project.resolve("data/readings.jsonl")));
        assertThat(alerts).as("alert lines of %s", lines)
                .containsExactly("press-1 overheating: 2 minutes at 85.0 or more since 2026-01-01T08:01:00Z");
    }

    /** The job's minute lines recomputed from its input: per machine and minute, count, max and mean of temperatures. */
    private static List<String> minuteStatsOf(Path input) throws IOException {
        Map<String, double[]> sums = new TreeMap<>();   // "machine minute" to {count, total, max}
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(input)) {
            JsonNode r = json.readTree(line);
            if (!r.get("sensor").asText().equals("temperature")) {
                continue;
            }
            long minute = r.get("time").asLong() / 60_000 * 60_000;
            double[] s = sums.computeIfAbsent(r.get("machine").asText() + " " + minute,
                    k -> new double[] {0, 0, Double.NEGATIVE_INFINITY});
            s[0]++;
            s[1] += r.get("value").asDouble();
            s[2] = Math.max(s[2], r.get("value").asDouble());
        }
        List<String> expected = new ArrayList<>();
        sums.forEach((key, s) -> {
            String[] machineAndMinute = key.split(" ");
            expected.add("MinuteStats[machine=" + machineAndMinute[0] + ", minute="
                    + Instant.ofEpochMilli(Long.parseLong(machineAndMinute[1])) + ", readings=" + (int) s[0]
                    + ", max=" + s[2] + ", mean=" + s[1] / s[0] + "]");
        });
        assertThat(expected).as("minutes in %s", input).hasSize(8);
        return expected;
    }

    /** Runs {@code command} with its output and errors in {@code log}; kills it and its children after the timeout. */
    private static int run(ProcessBuilder command, Path log, long timeoutSeconds) throws IOException, InterruptedException {
        Process p = command.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            throw new AssertionError(command.command() + " did not finish within " + timeoutSeconds + " s; output:\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        return p.exitValue();
    }

    /** The mvn of the Maven that runs this build (surefire passes maven.home), else mvn on the PATH. */
    private static String maven() {
        String home = System.getProperty("maven.home");
        if (home != null && !home.isBlank()) {
            Path mvn = Path.of(home, "bin", "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn.toString();
            }
        }
        return "mvn";
    }

    private static Path sourceRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("millrace-core/pom.xml"))) {
            p = p.getParent();
        }
        assertThat(p).as("the Millrace source tree above %s", Path.of("").toAbsolutePath()).isNotNull();
        return p;
    }
}
