package io.millrace.bench.millrace;

import io.millrace.api.JobHandle;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.runtime.local.LocalExecutor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Time from restart to the first correct output after a kill (issue 3, part c). A child JVM runs {@link KeyedCounts}
 * with checkpoints into a directory until every key holds state, takes a checkpoint, runs on for a second and is
 * killed with SIGKILL. A second child started with the same directory resumes from that checkpoint; the figure is
 * the wall time from starting that process to reading its first sample that is correct (count = the exactly-once
 * count) and belongs to a key that held state before the kill. The child also reports where the time went: JVM
 * start to job submission, submission to the first record counted (restore and task start), first record to the
 * first correct sample.
 *
 * <p>Child protocol (standard output, one line each): {@code FILLED <state_mb>}, {@code CHECKPOINT <id> <ms>
 * <bytes>}, {@code RESTORED <jvm_to_submit_ms> <submit_to_first_record_ms> <first_record_to_proof_ms> <index>
 * <count>}, {@code WRONG <sample>}.
 */
public final class RecoveryTime {
    private RecoveryTime() {}

    /** Runs both children and prints one line of figures. */
    static void measure(long keys, int pad, String childHeap, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("millrace-recovery");
        try {
            List<String> first = new ArrayList<>();
            Process p = start(dir, keys, pad, childHeap, "first");
            try (BufferedReader in = reader(p)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    first.add(line);
                    if (line.startsWith("CHECKPOINT")) {
                        if (p.waitFor(1, TimeUnit.SECONDS)) { // progress after the checkpoint, to be replayed
                            throw new IllegalStateException("the first child ended before it was killed: " + first);
                        }
                        break;
                    }
                }
            }
            p.destroyForcibly(); // SIGKILL
            p.waitFor();
            if (first.stream().noneMatch(l -> l.startsWith("CHECKPOINT"))) {
                throw new IllegalStateException("the first child ended without a checkpoint: " + first);
            }
            long start = System.nanoTime();
            Process q = start(dir, keys, pad, childHeap, "restart");
            String restored = null;
            try (BufferedReader in = reader(q)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("RESTORED") || line.startsWith("WRONG")) {
                        restored = line;
                        break;
                    }
                }
            }
            long wallMs = (System.nanoTime() - start) / 1_000_000;
            q.destroyForcibly();
            q.waitFor();
            if (restored == null || !restored.startsWith("RESTORED")) {
                throw new IllegalStateException("the restarted child gave no correct output: " + restored);
            }
            String[] f = restored.split(" ");
            String[] filled = first.stream().filter(l -> l.startsWith("FILLED")).findFirst().orElse("FILLED ?").split(" ");
            String[] ck = first.stream().filter(l -> l.startsWith("CHECKPOINT")).findFirst().orElseThrow().split(" ");
            out.printf(Locale.ROOT, "CHECKPOINT_COST part=recovery keys=%d state_mb=%s checkpoint_ms=%s checkpoint_bytes=%s restart_to_first_correct_ms=%d jvm_to_submit_ms=%s submit_to_first_record_ms=%s first_record_to_correct_ms=%s sample_index=%s sample_count=%s load=%s%n",
                    keys, filled[1], ck[2], ck[3], wallMs, f[1], f[2], f[3], f[4], f[5], CheckpointCost.load());
        } finally {
            CheckpointCost.delete(dir);
        }
    }

    private static Process start(Path dir, long keys, int pad, String heap, String phase) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(java, "-Xmx" + heap, "-XX:+UseG1GC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true", "-cp", System.getProperty("java.class.path"), RecoveryTime.class.getName(),
                dir.toString(), String.valueOf(keys), String.valueOf(pad), phase);
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static BufferedReader reader(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The child: {@code <dir> <keys> <pad> first|restart}. Runs until killed. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long keys = Long.parseLong(args[1]);
        int pad = Integer.parseInt(args[2]);
        boolean restart = args[3].equals("restart");
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        PipelineConfig config = new PipelineConfig().parallelism(CheckpointCost.PARALLELISM);
        config.checkpoints().directory(dir).periodic(false);
        SampleWatch.proofFromIndex = keys;
        long before = restart ? 0 : CheckpointCost.usedHeapBytes();
        long submit = System.currentTimeMillis();
        JobHandle job = new LocalExecutor().submit(KeyedCounts.build(config, keys, pad, 1024, 0, new SampleWatch()).plan(), "recovery");
        if (!restart) {
            SampleWatch.awaitIndex(job, keys); // every key holds state
            System.out.println("FILLED " + ((CheckpointCost.usedHeapBytes() - before) >> 20));
            long id = job.triggerCheckpoint().get(10, TimeUnit.MINUTES);
            CheckpointMetrics m = CheckpointCost.checkpoint(job.metrics(), id);
            System.out.println("CHECKPOINT " + id + " " + m.durationMillis() + " " + m.bytes());
            job.await();
            return;
        }
        SampleWatch.awaitVerdict(job);
        if (SampleWatch.firstWrong != null) {
            System.out.println("WRONG " + SampleWatch.firstWrong);
        } else if (SampleWatch.firstProof != null) {
            KeyedCounts.Sample s = SampleWatch.firstProof;
            System.out.println("RESTORED " + (submit - jvmStart) + " " + (KeyedCounts.firstRecordMillis - submit) + " "
                    + (SampleWatch.firstProofMillis - KeyedCounts.firstRecordMillis) + " " + s.index() + " " + s.count());
        }
        job.await();
    }
}
