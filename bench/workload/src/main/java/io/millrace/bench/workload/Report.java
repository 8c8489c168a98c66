package io.millrace.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The lines the benchmark prints, and the peak resident set size of this process. */
public final class Report {
    private Report() {}

    public static String result(String engine, String query, String backend, long events, double seconds, double eps,
            String p99Ms, long peakRssMb) {
        return String.format(Locale.ROOT, "RESULT engine=%s query=%s backend=%s events=%d seconds=%.3f eps=%.0f p99_ms=%s peak_rss_mb=%d",
                engine, query, backend, events, seconds, eps, p99Ms, peakRssMb);
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
