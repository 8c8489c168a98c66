package io.millrace.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    @TempDir
    Path dir;

    @Test
    void damonIsOnWhenAnyKdamondRuns_offWhenNoneDoes_absentWithoutTheDirectory() throws IOException {
        Path kdamonds = dir.resolve("kdamonds");
        assertThat(Report.damon(kdamonds)).isEqualTo("absent");

        Files.createDirectories(kdamonds.resolve("0"));
        Files.writeString(kdamonds.resolve("0/state"), "off\n");
        Files.createDirectories(kdamonds.resolve("1"));
        Files.writeString(kdamonds.resolve("1/state"), "off\n");
        assertThat(Report.damon(kdamonds)).isEqualTo("off");

        Files.writeString(kdamonds.resolve("1/state"), "on\n");
        assertThat(Report.damon(kdamonds)).isEqualTo("on");
    }

    @Test
    void machineLineNamesCoresJavaAndThisKernelsDamonState() {
        String line = Report.machine();
        assertThat(line).startsWith("machine: " + Runtime.getRuntime().availableProcessors() + " cores, ")
                .contains("Java " + System.getProperty("java.version"))
                .endsWith("kernel DAMON " + Report.damon(Path.of("/sys/kernel/mm/damon/admin/kdamonds")));
        assertThat(Report.damon(Path.of("/sys/kernel/mm/damon/admin/kdamonds"))).isIn("on", "off", "absent");
    }
}
