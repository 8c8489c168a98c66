package io.millrace.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The lines the benchmark prints, and the peak resident set size of this process. */
public final class Report {
    private Report() {}

    /**
     * The RESULT line. {@code results}: how many results the measured run counted at the sink ("-" for the
     * generator), the same on every engine for a query and input (the script compares them, see {@code RATIO}).
     */
    public static String result(String engine, String query, String backend, long events, double seconds, double eps,
            String p99Ms, long peakRssMb, String results) {
        return String.format(Locale.ROOT, "RESULT engine=%s query=%s backend=%s events=%d seconds=%.3f eps=%.0f p99_ms=%s peak_rss_mb=%d results=%s",
                engine, query, backend, events, seconds, eps, p99Ms, peakRssMb, results);
    }

    /**
     * The machine a run measures: cores, CPU model, JVM, and the kernel's DAMON ({@link #damon}). Printed once per
     * JVM, so that figures taken with and without DAMON are told apart (docs/benchmarks.md, "The machine").
     */
    public static String machine() {
        String model = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    model = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException e) {
            // no /proc: the model stays unknown
        }
        return String.format(Locale.ROOT, "machine: %d cores, %s, Java %s (%s), kernel DAMON %s",
                Runtime.getRuntime().availableProcessors(), model, System.getProperty("java.version"),
                System.getProperty("java.vm.name"), damon(Path.of("/sys/kernel/mm/damon/admin/kdamonds")));
    }

    /**
     * Whether the kernel's DAMON monitors memory: "on" when any kdamond under {@code kdamonds} (sysfs) is running,
     * "off" when there are kdamonds and none runs, "absent" without that directory. On this project's VM its
     * pageout scheme takes a core from a thread for 5-18 ms about twice a second while a JVM allocates fast
     * (profiling note 12), which is most of the stateless queries' p99 there.
     */
    static String damon(Path kdamonds) {
        if (!Files.isDirectory(kdamonds)) {
            return "absent";
        }
        try (var dirs = Files.list(kdamonds)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                Path state = d.resolve("state");
                if (Files.isReadable(state) && Files.readString(state).trim().equals("on")) {
                    return "on";
                }
            }
        } catch (IOException e) {
            return "unknown";
        }
        return "off";
    }

    /** VmHWM of /proc/self/status in MB, or -1 where there is no /proc. */
    public static long peakRssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
