package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.cep.CepCrashLoopJob.Tick;
import io.millrace.runtime.checkpoint.CrashLoop;
import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once through crashes: the pattern job in a child JVM is killed with SIGKILL at random moments and started
 * again with the same checkpoint directory and nothing else. Its committed matches must be exactly the brute-force
 * matcher's over the whole input: none lost, none twice.
 */
class CepCrashLoopIT {
    private static final long EVENTS = 60_000;

    @TempDir
    Path dir;

    @Test
    void whenKilledAtRandomMoments_thenEveryMatchIsCommittedExactlyOnce() throws Exception {
        killAndCheck(List.of(), 21);
    }

    @Test
    void whenKilledAtRandomMoments_onRocksDb_thenEveryMatchIsCommittedExactlyOnce() throws Exception {
        killAndCheck(List.of("rocksdb", RocksDbConfig.DIRECTORY_OPTION + "=" + dir.resolve("rocksdb-state"),
                RocksDbConfig.MANAGED_MEMORY_OPTION + "=32mb"), 22);
    }

    private void killAndCheck(List<String> backendArgs, long seed) throws Exception {
        CrashLoop.killRepeatedly(dir, 8, seed,
                () -> CrashLoop.start(dir, CepCrashLoopJob.class, backendArgs, Long.toString(EVENTS), "8000"));
        assertThat(Files.readString(dir.resolve("job.log"))).contains("FINISHED");

        List<String> committed = new ArrayList<>(ExactlyOnceRecoveryIT.readLines(dir.resolve("matches")));
        List<String> expected = new ArrayList<>();
        for (int key = 0; key < CepCrashLoopJob.KEYS; key++) {
            int k = key;
            List<Tick> mine = LongStream.range(0, EVENTS).filter(i -> i % CepCrashLoopJob.KEYS == k).mapToObj(CepCrashLoopJob::tick).toList();
            BruteForceMatcher.matches(CepCrashLoopJob.pattern(), mine, t -> t.seq() * 10, Integer.MAX_VALUE / 100)
                    .forEach(m -> expected.add(CepCrashLoopJob.describe(m)));
        }
        assertThat(expected).hasSizeGreaterThan(1_000);
        committed.sort(null);
        expected.sort(null);
        assertThat(committed).isEqualTo(expected);
    }
}
