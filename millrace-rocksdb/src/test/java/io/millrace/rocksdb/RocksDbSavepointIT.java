package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job on RocksDB with incremental checkpoints stops with a savepoint: the savepoint is a full snapshot in
 * key-group sections, and the next version restores from it, at another parallelism, with the checkpoints'
 * shared files deleted. Every count is committed exactly once over both runs.
 */
class RocksDbSavepointIT {
    static final long EVENTS = 30_000;
    static final int KEYS = 29;

    @TempDir
    Path dir;

    private Pipeline job(int parallelism, Path restoreFrom) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism)
                .stateBackend("rocksdb")
                .stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, dir.resolve("rocksdb-state").toString())
                .stateBackendOption(RocksDbConfig.MANAGED_MEMORY_OPTION, "32mb");
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(100));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        p.fromSource(GeneratorSource.builder(i -> i).count(EVENTS).ratePerSecond(15_000).build(),
                        WatermarkStrategy.<Long>noWatermarks(), "numbers").uid("numbers")
                .keyBy(i -> i % KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).uid("running-count")
                .sinkTo(TransactionalFileSink.of(dir.resolve("counts"), ExactlyOnceRecoveryIT.LINES)).uid("counts-sink");
        return p;
    }

    @Test
    void savepointOfIncrementalJob_isFullAndSelfContained_andRestoresAtAnotherParallelismWithoutSharedFiles() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("checkpoints"));
        JobHandle first = job(2, null).executeAsync("counts");
        Await.until("the first incremental checkpoint", Duration.ofSeconds(60), () -> {
            try {
                return !storage.sharedFiles().isEmpty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThat(storage.sharedFiles()).as("shared files of incremental checkpoints").isNotEmpty();
        String savepoint = first.stopWithSavepoint().get(1, TimeUnit.MINUTES);

        CheckpointMetadata metadata = storage.load(savepoint);
        assertThat(metadata.operators().get("running-count").subtasks())
                .allSatisfy(s -> assertThat(s.nativeKeyedState()).isNull())
                .anySatisfy(s -> assertThat(s.keyedState()).isNotNull());
        deleteTree(dir.resolve("checkpoints").resolve("checkpoints"));

        JobResult second = job(3, Path.of(savepoint)).execute("counts");

        assertThat(second.metrics().lastCompletedCheckpoint()).isGreaterThan(0);
        Map<Long, List<Long>> byKey = new HashMap<>();
        for (String line : ExactlyOnceRecoveryIT.readLines(dir.resolve("counts"))) {
            String[] kv = line.split(",");
            byKey.computeIfAbsent(Long.parseLong(kv[0]), k -> new ArrayList<>()).add(Long.parseLong(kv[1]));
        }
        assertThat(byKey).hasSize(KEYS);
        byKey.forEach((key, counts) -> {
            counts.sort(Long::compare);
            long expected = (EVENTS - key + KEYS - 1) / KEYS;
            assertThat(counts).as("counts of key %d", key).hasSize((int) expected);
            for (int i = 0; i < counts.size(); i++) {
                assertThat(counts.get(i)).as("count %d of key %d", i, key).isEqualTo(i + 1L);
            }
        });
    }

    private static void deleteTree(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
