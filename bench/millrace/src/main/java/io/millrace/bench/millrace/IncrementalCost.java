package io.millrace.bench.millrace;

import io.millrace.api.JobHandle;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.local.LocalExecutor;
import io.millrace.rocksdb.RocksDbConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Full against incremental checkpoints of the RocksDB backend ({@code --part rocksdb} of {@link CheckpointCost}),
 * parallelism 2. For each mode ({@code --incremental both|true|false}): {@link KeyedCounts} with {@code --keys}
 * keys of {@code --pad} bytes, fed at {@code --rate} events per second (0: as fast as it goes), until every key
 * holds state; then {@code --checkpoints} checkpoints one after the other, {@code --pause-ms} apart, while the
 * input keeps running: duration, bytes written, bytes the checkpoint refers to (its full size; equal to the bytes
 * written for full checkpoints) and the longest synchronous pause. Then the job is cancelled and started again on
 * the same checkpoint directory: the time from submission to the first record counted (reading the checkpoint
 * and opening the state) and to the first correct sample of a key that held state.
 */
final class IncrementalCost {
    private IncrementalCost() {}

    static void measure(long keys, int pad, double rate, int checkpoints, long pauseMillis, String modes, PrintStream out) throws Exception {
        for (String mode : new String[] {"false", "true"}) {
            if (modes.equals("both") || modes.equals(mode)) {
                run(keys, pad, rate, checkpoints, pauseMillis, Boolean.parseBoolean(mode), out);
            }
        }
    }

    private static void run(long keys, int pad, double rate, int checkpoints, long pauseMillis, boolean incremental, PrintStream out)
            throws Exception {
        Path dir = Files.createTempDirectory("millrace-ckrocks");
        String mode = incremental ? "incremental" : "full";
        try {
            SampleWatch.highestIndex.set(-1);
            JobHandle job = new LocalExecutor().submit(KeyedCounts.build(config(dir, incremental), keys, pad, 1024, rate, new SampleWatch()).plan(),
                    "ckcost-rocksdb");
            long fillStart = System.nanoTime();
            SampleWatch.awaitIndex(job, keys); // every key holds state
            out.printf(Locale.ROOT, "CHECKPOINT_COST part=rocksdb mode=%s keys=%d pad=%d rate=%.0f disk_mb=%d fill_seconds=%.1f load=%s%n",
                    mode, keys, pad, rate, diskBytes(dir.resolve("rocksdb")) >> 20, (System.nanoTime() - fillStart) / 1e9, CheckpointCost.load());
            LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
            for (int c = 0; c < checkpoints; c++) {
                if (job.await(Duration.ofMillis(pauseMillis)) != null) { // writes go on between checkpoints
                    throw new IllegalStateException("the job ended before checkpoint " + (c + 1) + " of " + checkpoints);
                }
                long id = job.triggerCheckpoint().get(10, TimeUnit.MINUTES);
                CheckpointMetrics m = CheckpointCost.checkpoint(job.metrics(), id);
                out.printf(Locale.ROOT, "CHECKPOINT_COST part=rocksdb mode=%s checkpoint=%d duration_ms=%d written_bytes=%d referenced_bytes=%d max_sync_pause_us=%d load=%s%n",
                        mode, id, m.durationMillis(), m.bytes(), referencedBytes(storage, id), m.maxSyncPauseMicros(), CheckpointCost.load());
            }
            job.cancel();
            job.await();
            restore(dir, keys, pad, rate, incremental, mode, out);
        } finally {
            CheckpointCost.delete(dir);
        }
    }

    /** Starts the job again on the checkpoint directory and times the restore. */
    private static void restore(Path dir, long keys, int pad, double rate, boolean incremental, String mode, PrintStream out)
            throws Exception {
        KeyedCounts.firstRecordMillis = 0;
        SampleWatch.firstProofMillis = 0;
        SampleWatch.firstProof = null;
        SampleWatch.firstWrong = null;
        SampleWatch.proofFromIndex = keys;
        long submit = System.currentTimeMillis();
        JobHandle job = new LocalExecutor().submit(KeyedCounts.build(config(dir, incremental), keys, pad, 1024, rate, new SampleWatch()).plan(),
                "ckcost-rocksdb-restore");
        SampleWatch.awaitVerdict(job);
        job.cancel();
        job.await();
        if (SampleWatch.firstWrong != null || SampleWatch.firstProof == null) {
            throw new IllegalStateException("the restored job gave no correct sample: " + SampleWatch.firstWrong);
        }
        out.printf(Locale.ROOT, "CHECKPOINT_COST part=rocksdb mode=%s restore_to_first_record_ms=%d restore_to_first_correct_ms=%d load=%s%n",
                mode, KeyedCounts.firstRecordMillis - submit, SampleWatch.firstProofMillis - submit, CheckpointCost.load());
    }

    private static PipelineConfig config(Path dir, boolean incremental) {
        PipelineConfig config = new PipelineConfig().parallelism(CheckpointCost.PARALLELISM)
                .stateBackend("rocksdb")
                .stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, dir.resolve("rocksdb").toString())
                .stateBackendOption(RocksDbConfig.INCREMENTAL_OPTION, String.valueOf(incremental));
        config.checkpoints().directory(dir).periodic(false);
        return config;
    }

    /** The size of checkpoint {@code id}: every file it refers to, shared ones included. */
    private static long referencedBytes(LocalCheckpointStorage storage, long id) throws IOException {
        CheckpointMetadata metadata = storage.load(storage.checkpointRoot().resolve("chk-" + id).toString());
        long bytes = 0;
        for (CheckpointMetadata.OperatorSnapshot op : metadata.operators().values()) {
            for (CheckpointMetadata.SubtaskSnapshot s : op.subtasks()) {
                bytes += s.keyedState() == null ? 0 : s.keyedState().size();
                bytes += s.operatorState() == null ? 0 : s.operatorState().size();
                bytes += s.nativeKeyedState() == null ? 0 : s.nativeKeyedState().totalBytes();
            }
        }
        return bytes;
    }

    private static long diskBytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
