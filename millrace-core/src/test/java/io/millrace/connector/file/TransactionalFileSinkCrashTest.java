package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the sink the way the runtime does, with crashes at random moments, declined checkpoints and
 * commits delayed past later checkpoints, and compares the committed output with the input. The runtime
 * either keeps every committable not yet committed in the next checkpoint, or only the latest ones.
 */
class TransactionalFileSinkCrashTest {
    private static final int SUBTASKS = 2;
    private static final int RECORDS = 200;

    @TempDir
    Path dir;

    /** A complete checkpoint: the source positions and every committable not yet committed when it was taken. */
    record Completed(long id, int[] positions, List<PendingPart> committables) {}

    private static TransactionalFileSinkTest.Context context(int subtask) {
        return new TransactionalFileSinkTest.Context(subtask, SUBTASKS, new ManualClock(0), "files");
    }

    @ParameterizedTest
    @CsvSource({"1, true", "2, false", "3, true", "4, false"})
    void whenCrashedAndRestoredRepeatedly_thenEveryRecordIsCommittedExactlyOnceInOrder(long seed, boolean carryForward)
            throws Exception {
        Random random = new Random(seed);
        TransactionalFileSink<String> sink = TransactionalFileSink.<String>jsonLines(dir).rollAtBytes(60);
        Completed restored = new Completed(-1, new int[SUBTASKS], List.of());
        int crashes = 0;
        boolean finished = false;
        for (int run = 0; run < 200 && !finished; run++) {
            List<CommittingSinkWriter<String, PendingPart>> writers = new ArrayList<>();
            for (int s = 0; s < SUBTASKS; s++) {
                sink.abortLingering(context(s), restored.id());
            }
            sink.createCommitter(context(0)).commit(restored.committables());
            for (int s = 0; s < SUBTASKS; s++) {
                writers.add(sink.createWriter(context(s)));
            }
            int[] positions = restored.positions().clone();
            List<PendingPart> uncommitted = new ArrayList<>();
            long nextId = restored.id() + 1;
            while (true) {
                boolean done = Arrays.stream(positions).allMatch(p -> p == RECORDS);
                double dice = random.nextDouble();
                if (!done && dice < 0.05) {
                    crashes++;
                    break;
                }
                if (done || dice < 0.25) {
                    long id = nextId++;
                    if (!carryForward) {
                        uncommitted.clear();
                    }
                    for (CommittingSinkWriter<String, PendingPart> w : writers) {
                        uncommitted.addAll(w.prepareCommit(id));
                    }
                    boolean completes = done || random.nextDouble() < 0.7;
                    if (completes) {
                        restored = new Completed(id, positions.clone(), List.copyOf(uncommitted));
                        if (done || random.nextDouble() < 0.7) {
                            sink.createCommitter(context(0)).commit(uncommitted);
                            uncommitted.clear();
                        }
                    }
                    if (done) {
                        finished = true;
                        break;
                    }
                    continue;
                }
                int s = random.nextInt(SUBTASKS);
                int until = Math.min(RECORDS, positions[s] + random.nextInt(6));
                for (; positions[s] < until; positions[s]++) {
                    writers.get(s).write("s" + s + "-" + positions[s], 0);
                }
            }
        }

        assertThat(finished).isTrue();
        assertThat(crashes).isGreaterThan(3);
        try (Stream<Path> staged = Files.list(sink.stagingDirectory())) {
            assertThat(staged).isEmpty();
        }
        for (int s = 0; s < SUBTASKS; s++) {
            int subtask = s;
            List<String> expected = IntStream.range(0, RECORDS).mapToObj(i -> "\"s" + subtask + "-" + i + "\"").toList();
            assertThat(committedLines(subtask)).isEqualTo(expected);
        }
    }

    /** The lines of a subtask's committed parts, in checkpoint and part order. */
    private List<String> committedLines(int subtask) throws Exception {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> parts = files.filter(f -> f.getFileName().toString().startsWith("part-" + subtask + "-"))
                    .sorted(Comparator.comparingLong((Path f) -> nameNumber(f, 2)).thenComparingLong(f -> nameNumber(f, 3)))
                    .toList();
            for (Path part : parts) {
                lines.addAll(Files.readAllLines(part));
            }
        }
        return lines;
    }

    private static long nameNumber(Path file, int index) {
        String name = file.getFileName().toString();
        return Long.parseLong(name.substring(0, name.lastIndexOf('.')).split("-")[index]);
    }
}
