package io.millrace.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench/scripts/median-round.awk}: how {@code ./millrace-bench --rounds N} picks each engine's RESULT. */
class MedianRoundScriptTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "median-round.awk");

    @TempDir
    Path dir;

    private static String round(int k, String engine, String query, String backend, long eps) {
        return "ROUND round=" + k + " engine=" + engine + " query=" + query + " backend=" + backend
                + " events=20000000 seconds=" + String.format(java.util.Locale.ROOT, "%.3f", 20e6 / eps) + " eps=" + eps
                + " p99_ms=" + k + ".5 peak_rss_mb=22" + k + "0";
    }

    private List<String> medians(List<String> rounds) throws IOException, InterruptedException {
        Path in = dir.resolve("rounds.txt");
        Files.write(in, rounds);
        Process awk = new ProcessBuilder("awk", "-f", SCRIPT.toString(), in.toString()).redirectErrorStream(true).start();
        String out = new String(awk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(awk.waitFor()).as(out).isZero();
        return out.lines().toList();
    }

    @Test
    void eachEngineAndQueryGetsItsMedianRound_wholeLine_inTheOrderTheyFirstRan() throws Exception {
        List<String> out = medians(List.of(
                round(1, "millrace", "q8", "heap", 25_098_939), round(1, "flink", "q8", "heap", 8_115_108),
                round(1, "millrace", "q3", "heap", 24_992_049),
                round(2, "millrace", "q8", "heap", 30_869_801), round(2, "flink", "q8", "heap", 8_606_444),
                round(2, "millrace", "q3", "heap", 26_524_116),
                round(3, "millrace", "q8", "heap", 28_051_546), round(3, "flink", "q8", "heap", 9_883_543),
                round(3, "millrace", "q3", "heap", 4_195_120)));
        assertThat(out).containsExactly(
                round(3, "millrace", "q8", "heap", 28_051_546).replace("ROUND round=3", "RESULT"),
                round(2, "flink", "q8", "heap", 8_606_444).replace("ROUND round=2", "RESULT"),
                round(1, "millrace", "q3", "heap", 24_992_049).replace("ROUND round=1", "RESULT"));
    }

    @Test
    void ofAnEvenCountTheSlowerMiddleRound_andBackendsApart() throws Exception {
        List<String> out = medians(List.of(
                round(1, "millrace", "q8", "heap", 30_000_000), round(1, "millrace", "q8", "rocksdb", 7_000_000),
                round(2, "millrace", "q8", "heap", 20_000_000), round(2, "millrace", "q8", "rocksdb", 9_000_000),
                round(3, "millrace", "q8", "heap", 26_000_000),
                round(4, "millrace", "q8", "heap", 24_000_000)));
        assertThat(out).containsExactly(
                round(4, "millrace", "q8", "heap", 24_000_000).replace("ROUND round=4", "RESULT"),
                round(1, "millrace", "q8", "rocksdb", 7_000_000).replace("ROUND round=1", "RESULT"));
    }
}
