package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link CrashLoopJob} in child JVMs: killed with SIGKILL at random moments {@code kills} times, then
 * run to the end, each time with the same directory and nothing else; then checks that the committed output
 * has every result exactly once. Shared by the crash-loop tests of every state backend.
 */
public final class CrashLoop {
    private final Path dir;
    private final List<String> backendArgs;

    /** {@code backendArgs}: none for the heap backend, else the backend name and option=value pairs. */
    public CrashLoop(Path dir, String... backendArgs) {
        this.dir = dir;
        this.backendArgs = List.of(backendArgs);
    }

    private Process start(long events, double rate, long slowMicros) throws Exception {
        return start(dir, CrashLoopJob.class, backendArgs, Long.toString(events), Double.toString(rate), Long.toString(slowMicros));
    }

    /** Starts {@code main} in a child JVM with this test's class path: {@code main <dir> <args...> <backendArgs...>}, output to job.log. */
    public static Process start(Path dir, Class<?> main, List<String> backendArgs, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), main.getName(), dir.toString()));
        command.addAll(List.of(args));
        command.addAll(backendArgs);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("job.log").toFile()))
                .start();
    }

    /**
     * Starts a job with {@code starter} and kills it with SIGKILL after 400 to 1,300 ms, {@code kills} times, then
     * starts it once more and waits up to two minutes for that run to finish by itself. Fails if a run exits with an
     * error, or if the job finished before it could be killed that often.
     */
    public static void killRepeatedly(Path dir, int kills, long seed, java.util.concurrent.Callable<Process> starter) throws Exception {
        Random random = new Random(seed);
        int killed = 0;
        while (killed < kills) {
            Process job = starter.call();
            long lifetime = 400 + random.nextInt(900);
            if (job.waitFor(lifetime, TimeUnit.MILLISECONDS)) {
                assertThat(job.exitValue()).as("job exited early with its own error, see %s", dir.resolve("job.log")).isZero();
                break; // finished before the kill: nothing left to kill
            }
            job.destroyForcibly(); // SIGKILL
            job.waitFor(30, TimeUnit.SECONDS);
            killed++;
        }
        Process last = starter.call();
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).as("the last run finishes").isTrue();
        assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
        assertThat(killed).as("kills before the job could finish").isEqualTo(kills);
    }

    /**
     * Starts a job with {@code starter} and kills it with SIGKILL once that run has completed a checkpoint of its own (a
     * {@code chk-<id>} directory with {@code _metadata} in {@code checkpoints}, newer than any before the run started),
     * at a random moment up to {@code maxExtraMillis} later; {@code kills} times. For jobs that plan or connect for a
     * while before they process anything (SQL jobs, sources that snapshot first), so that every kill cuts into the
     * stream. Fails if a run ends by itself or takes over 90 s to checkpoint. Does not start the last run.
     */
    public static void killAfterEachCheckpoint(Path checkpoints, int kills, long seed, int maxExtraMillis,
            java.util.concurrent.Callable<Process> starter) throws Exception {
        Random random = new Random(seed);
        for (int kill = 0; kill < kills; kill++) {
            long before = newestCheckpoint(checkpoints);
            Process job = starter.call();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (newestCheckpoint(checkpoints) <= before) {
                if (job.waitFor(20, TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("the job ended (exit " + job.exitValue() + ") after " + kill
                            + " kills, before it could be killed again: give it more input");
                }
                assertThat(System.nanoTime()).as("run %d completes a checkpoint within 90 s", kill).isLessThan(deadline);
            }
            if (job.waitFor(random.nextInt(maxExtraMillis + 1), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the job ended (exit " + job.exitValue() + ") after " + kill + " kills: give it more input");
            }
            job.destroyForcibly(); // SIGKILL
            assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * The id of the newest complete checkpoint in {@code checkpoints} (the directory holding the {@code chk-<id>}
     * directories), or -1. A job deletes older checkpoints meanwhile, so a directory listed may be gone when looked into.
     */
    public static long newestCheckpoint(Path checkpoints) throws java.io.IOException {
        long newest = -1;
        if (java.nio.file.Files.isDirectory(checkpoints)) {
            try (var chk = java.nio.file.Files.newDirectoryStream(checkpoints, "chk-*")) {
                for (Path p : chk) {
                    if (java.nio.file.Files.exists(p.resolve("_metadata"))) {
                        newest = Math.max(newest, Long.parseLong(p.getFileName().toString().substring(4)));
                    }
                }
            }
        }
        return newest;
    }

    /** Kills the job {@code kills} times (or fewer if it finishes first, which fails), then checks its output. */
    public void run(int kills, long seed, long events, double rate, long slowMicros) throws Exception {
        killRepeatedly(dir, kills, seed, () -> start(events, rate, slowMicros));

        ExactlyOnceRecoveryIT.assertRunningCountsExact(ExactlyOnceRecoveryIT.readLines(dir.resolve("counts")), events);
        List<String> windows = ExactlyOnceRecoveryIT.readLines(dir.resolve("windows"));
        assertThat(windows).hasSize((int) (events / 1000 * ExactlyOnceRecoveryIT.KEYS));
        assertThat(windows.stream().mapToLong(Long::parseLong).sum()).isEqualTo(events);
    }
}
