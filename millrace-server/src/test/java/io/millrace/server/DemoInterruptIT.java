package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Ctrl-C (SIGINT) stops a running demo cleanly: the summary is printed and the process exits. */
class DemoInterruptIT {

    @Test
    void sigint_stopsTheDemo_withASummary() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process demo = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.millrace.server.Main",
                "demo", "--duration", "10m", "--status-every", "500ms", "--quiet")
                .redirectErrorStream(true)
                .start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean interrupted = false;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (!interrupted && line.startsWith("status ")) {
                    new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).start().waitFor();
                    interrupted = true;
                }
            }
        } finally {
            if (!demo.waitFor(30, TimeUnit.SECONDS)) {
                demo.destroyForcibly();
            }
        }
        assertThat(demo.exitValue()).as("output: %s", lines).isIn(0, 130);
        assertThat(lines).as("output").contains("Summary (stopped early)");
        assertThat(lines).anyMatch(l -> l.trim().startsWith("events "));
    }
}
