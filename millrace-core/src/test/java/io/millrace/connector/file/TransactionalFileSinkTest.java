package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.ReaderDriver;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionalFileSinkTest {
    @TempDir
    Path dir;

    record Reading(String machine, double value) {}

    record Context(int subtaskIndex, int parallelism, Clock clock, String sinkName) implements SinkContext {
        static Context of(int subtask, int parallelism) {
            return new Context(subtask, parallelism, new ManualClock(0), "files");
        }
    }

    private static final Context SUBTASK_0 = Context.of(0, 1);

    private static List<Reading> readings(int from, int to) {
        List<Reading> list = new ArrayList<>();
        for (int i = from; i < to; i++) {
            list.add(new Reading("M" + i, i + 0.5));
        }
        return list;
    }

    private static <T> void writeAll(CommittingSinkWriter<T, PendingPart> writer, List<T> values) throws Exception {
        for (T v : values) {
            writer.write(v, 0);
        }
    }

    /** The names of the regular files directly in {@code d}, sorted. */
    private static List<String> names(Path d) throws IOException {
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(d)) {
            return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    static <T> List<T> readBack(FileSource<T> source) throws Exception {
        SourceReader<T, FileSplit> reader = source.createReader(TestReaderContext.single(new ManualClock(0)));
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<T> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 1_000);
        reader.close();
        assertThat(out.badRecords).isEmpty();
        return out.values;
    }

    private List<Reading> visibleJson(Path d) throws Exception {
        return readBack(FileSource.of(JsonLines.of(Reading.class), d));
    }

    @Test
    void whenPrepared_thenNothingIsVisibleUntilCommitted() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        sink.abortLingering(SUBTASK_0, -1);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 3));
        writer.flush(true);
        assertThat(names(dir)).isEmpty();
        assertThat(names(sink.stagingDirectory())).containsExactly("part-0-open-0.inprogress");

        List<PendingPart> parts = writer.prepareCommit(1);

        assertThat(names(dir)).isEmpty();
        assertThat(visibleJson(dir)).isEmpty();
        assertThat(names(sink.stagingDirectory())).containsExactly("part-0-1-0.pending");
        assertThat(parts).containsExactly(new PendingPart(
                dir.resolve(".in-progress/part-0-1-0.pending").toString(), dir.resolve("part-0-1-0.jsonl").toString()));

        sink.createCommitter(SUBTASK_0).commit(parts);

        assertThat(names(dir)).containsExactly("part-0-1-0.jsonl");
        assertThat(names(sink.stagingDirectory())).isEmpty();
        assertThat(visibleJson(dir)).isEqualTo(readings(0, 3));
    }

    @Test
    void whenCommittedTwiceOrPartlyBefore_thenTheResultIsTheSame() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.<Reading>jsonLines(dir).rollAtBytes(1);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 3));
        List<PendingPart> parts = writer.prepareCommit(7);
        assertThat(parts).hasSize(3);

        sink.createCommitter(SUBTASK_0).commit(parts.subList(0, 1));
        sink.createCommitter(SUBTASK_0).commit(parts);
        sink.createCommitter(SUBTASK_0).commit(parts);

        assertThat(names(dir)).containsExactly("part-0-7-0.jsonl", "part-0-7-1.jsonl", "part-0-7-2.jsonl");
        assertThat(visibleJson(dir)).isEqualTo(readings(0, 3));
    }

    @Test
    void whenAPartHasNeitherPendingNorFinalFile_thenCommitFailsNamingBoth() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 1));
        PendingPart part = writer.prepareCommit(1).get(0);
        Files.delete(Path.of(part.pendingPath()));

        assertThatThrownBy(() -> sink.createCommitter(SUBTASK_0).commit(List.of(part)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(part.pendingPath())
                .hasMessageContaining(part.finalPath())
                .hasMessageContaining("lost");
    }

    @Test
    void whenTheFinalNameIsTakenByAnotherRun_thenCommitFailsInsteadOfOverwriting() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        Files.writeString(dir.resolve("part-0-1-0.jsonl"), "{\"machine\":\"old\",\"value\":0}\n");
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 1));
        List<PendingPart> parts = writer.prepareCommit(1);

        assertThatThrownBy(() -> sink.createCommitter(SUBTASK_0).commit(parts))
                .hasMessageContaining(parts.get(0).finalPath() + " already exists");
        assertThat(visibleJson(dir)).containsExactly(new Reading("old", 0));
    }

    @Test
    void whenCrashedDuringTheNextCheckpoint_thenRestoreShowsExactlyTheOutputUpToTheRestoredOne() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        sink.abortLingering(SUBTASK_0, -1);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 5));
        List<PendingPart> checkpoint3 = writer.prepareCommit(3);
        writeAll(writer, readings(5, 8));
        writer.prepareCommit(4);
        writeAll(writer, readings(8, 9));
        // crash: checkpoint 3 completed but its commit never ran; 4 was prepared but never completed
        writer = null;
        assertThat(names(dir)).isEmpty();

        for (int attempt = 0; attempt < 2; attempt++) {
            sink.abortLingering(SUBTASK_0, 3);
            sink.createCommitter(SUBTASK_0).commit(checkpoint3);
        }

        assertThat(visibleJson(dir)).isEqualTo(readings(0, 5));
        assertThat(names(sink.stagingDirectory())).isEmpty();

        CommittingSinkWriter<Reading, PendingPart> restored = sink.createWriter(SUBTASK_0);
        writeAll(restored, readings(5, 9));
        sink.createCommitter(SUBTASK_0).commit(restored.prepareCommit(4));
        assertThat(names(dir)).containsExactly("part-0-3-0.jsonl", "part-0-4-0.jsonl");
        assertThat(visibleJson(dir)).isEqualTo(readings(0, 9));
    }

    @Test
    void whenCommittedBeforeAbortingLingeringParts_thenTheResultIsTheSame() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 2));
        List<PendingPart> checkpoint3 = writer.prepareCommit(3);
        writeAll(writer, readings(2, 4));
        writer.prepareCommit(4);

        sink.createCommitter(SUBTASK_0).commit(checkpoint3);
        sink.abortLingering(SUBTASK_0, 3);

        assertThat(visibleJson(dir)).isEqualTo(readings(0, 2));
        assertThat(names(sink.stagingDirectory())).isEmpty();
    }

    @Test
    void whenStartedAfresh_thenAllOpenAndPendingPartsOfTheSubtaskAreDeleted() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 2));
        writer.prepareCommit(0);
        writeAll(writer, readings(2, 4));
        writer.prepareCommit(1);
        writeAll(writer, readings(4, 5));
        assertThat(names(sink.stagingDirectory())).hasSize(3);

        sink.abortLingering(SUBTASK_0, -1);

        assertThat(names(sink.stagingDirectory())).isEmpty();
        assertThat(names(dir)).isEmpty();
    }

    @Test
    void whenOneSubtaskAbortsItsParts_thenAnotherSubtasksPartsAndCommittedFilesAreLeftAlone() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        Context first = Context.of(0, 2);
        Context second = Context.of(1, 2);
        CommittingSinkWriter<Reading, PendingPart> w0 = sink.createWriter(first);
        CommittingSinkWriter<Reading, PendingPart> w1 = sink.createWriter(second);
        writeAll(w0, readings(0, 2));
        writeAll(w1, readings(10, 12));
        List<PendingPart> done0 = w0.prepareCommit(1);
        List<PendingPart> done1 = w1.prepareCommit(1);
        sink.createCommitter(first).commit(done0);
        sink.createCommitter(second).commit(done1);
        writeAll(w0, readings(2, 3));
        writeAll(w1, readings(12, 13));
        List<PendingPart> pending1 = w1.prepareCommit(2);
        writeAll(w1, readings(13, 14));

        sink.abortLingering(first, 1);

        assertThat(names(sink.stagingDirectory())).containsExactly("part-1-2-0.pending", "part-1-open-2.inprogress");
        sink.createCommitter(second).commit(pending1);
        assertThat(names(dir)).containsExactly("part-0-1-0.jsonl", "part-1-1-0.jsonl", "part-1-2-0.jsonl");
        assertThat(visibleJson(dir)).containsExactlyInAnyOrderElementsOf(
                Stream.of(readings(0, 2), readings(10, 13)).flatMap(List::stream).toList());
    }

    @Test
    void whenRestoredAtLowerParallelism_thenTheRemainingSubtaskAlsoAbortsThePartsOfRemovedOnes() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        List<PendingPart> checkpoint5 = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            CommittingSinkWriter<Reading, PendingPart> w = sink.createWriter(Context.of(s, 3));
            writeAll(w, readings(10 * s, 10 * s + 2));
            checkpoint5.addAll(w.prepareCommit(5));
            writeAll(w, readings(10 * s + 2, 10 * s + 3));
            w.prepareCommit(6);
            writeAll(w, readings(10 * s + 3, 10 * s + 4));
        }

        sink.abortLingering(Context.of(0, 2), 5);
        sink.abortLingering(Context.of(1, 2), 5);
        sink.createCommitter(Context.of(0, 2)).commit(checkpoint5);

        assertThat(names(sink.stagingDirectory())).isEmpty();
        assertThat(visibleJson(dir)).containsExactlyInAnyOrderElementsOf(
                Stream.of(readings(0, 2), readings(10, 12), readings(20, 22)).flatMap(List::stream).toList());
    }

    @Test
    void whenOutputOfALaterCheckpointIsAlreadyCommitted_thenStartingFailsNamingTheFile() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 1));
        sink.createCommitter(SUBTASK_0).commit(writer.prepareCommit(4));

        sink.abortLingering(SUBTASK_0, 4);
        assertThatThrownBy(() -> sink.abortLingering(SUBTASK_0, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(dir.resolve("part-0-4-0.jsonl").toString())
                .hasMessageContaining("restored checkpoint 3");
        assertThatThrownBy(() -> sink.abortLingering(SUBTASK_0, -1)).hasMessageContaining("starts afresh");
        sink.partPrefix("second").abortLingering(SUBTASK_0, -1);
        sink.abortLingering(Context.of(1, 2), -1);
    }

    @Test
    void whenNothingWasWrittenSinceTheLastCheckpoint_thenNothingIsPrepared() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        assertThat(writer.prepareCommit(1)).isEmpty();
        writeAll(writer, readings(0, 1));
        List<PendingPart> parts = writer.prepareCommit(2);
        assertThat(parts).hasSize(1);
        sink.createCommitter(SUBTASK_0).commit(parts);
        assertThat(writer.prepareCommit(3)).isEmpty();
        assertThat(names(dir)).containsExactly("part-0-2-0.jsonl");
        assertThat(names(sink.stagingDirectory())).isEmpty();
        assertThatThrownBy(() -> writer.prepareCommit(3)).hasMessageContaining("checkpoint 3 prepared after checkpoint 3");
    }

    @Test
    void whenACheckpointWasDeclined_thenTheNextOnePreparesItsPartsAgainAndCommitsThem() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.jsonLines(dir);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 2));
        List<PendingPart> declined = writer.prepareCommit(1);
        writeAll(writer, readings(2, 3));

        List<PendingPart> next = writer.prepareCommit(2);
        sink.createCommitter(SUBTASK_0).commit(next);

        assertThat(next).hasSize(2).containsAll(declined);
        assertThat(names(dir)).containsExactly("part-0-1-0.jsonl", "part-0-2-0.jsonl");
        assertThat(writer.prepareCommit(3)).isEmpty();
    }

    @Test
    void whenClosed_thenTheUnpreparedPartsAreDeletedAndThePreparedOnesKept() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.<Reading>jsonLines(dir).rollAtBytes(40);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 1));
        List<PendingPart> parts = writer.prepareCommit(1);
        writeAll(writer, readings(1, 4)); // 30 bytes a line: a part rolls after two
        assertThat(names(sink.stagingDirectory()))
                .containsExactly("part-0-1-0.pending", "part-0-open-1.inprogress", "part-0-open-2.inprogress");

        writer.close();
        writer.close();

        assertThat(names(sink.stagingDirectory())).containsExactly("part-0-1-0.pending");
        assertThatThrownBy(() -> writer.write(new Reading("late", 0), 0)).isInstanceOf(IllegalStateException.class);
        sink.createCommitter(SUBTASK_0).commit(parts);
        assertThat(visibleJson(dir)).isEqualTo(readings(0, 1));
    }

    @Test
    void whenAPartReachesTheRollSize_thenTheCheckpointHasSeveralCsvPartsEachWithAHeader() throws Exception {
        TransactionalFileSink<Reading> sink = TransactionalFileSink.csv(dir, CsvEncoder.ofRecord(Reading.class)).rollAtBytes(40);
        CommittingSinkWriter<Reading, PendingPart> writer = sink.createWriter(SUBTASK_0);
        writeAll(writer, readings(0, 5));
        sink.createCommitter(SUBTASK_0).commit(writer.prepareCommit(1));

        // the header has 14 bytes, a line 7: the fourth line makes 42 >= 40
        assertThat(names(dir)).containsExactly("part-0-1-0.csv", "part-0-1-1.csv");
        assertThat(Files.readAllLines(dir.resolve("part-0-1-0.csv")))
                .containsExactly("machine,value", "M0,0.5", "M1,1.5", "M2,2.5", "M3,3.5");
        assertThat(Files.readAllLines(dir.resolve("part-0-1-1.csv"))).containsExactly("machine,value", "M4,4.5");
        List<Reading> back = readBack(FileSource.of(
                CsvFormat.withHeader().map(r -> new Reading(r.get("machine"), r.getDouble("value"))), dir));
        assertThat(back).isEqualTo(readings(0, 5));
    }

    @Test
    void whenTwoSinksShareADirectoryWithDifferentPrefixes_thenTheyDoNotInterfere() throws Exception {
        TransactionalFileSink<Reading> json = TransactionalFileSink.<Reading>jsonLines(dir).partPrefix("alerts");
        TransactionalFileSink<Reading> csv = TransactionalFileSink.csv(dir, CsvEncoder.ofRecord(Reading.class)).partPrefix("raw");
        CommittingSinkWriter<Reading, PendingPart> jsonWriter = json.createWriter(SUBTASK_0);
        CommittingSinkWriter<Reading, PendingPart> csvWriter = csv.createWriter(SUBTASK_0);
        writeAll(jsonWriter, readings(0, 2));
        writeAll(csvWriter, readings(0, 3));
        json.createCommitter(SUBTASK_0).commit(jsonWriter.prepareCommit(1));
        csvWriter.prepareCommit(1);
        writeAll(csvWriter, readings(3, 4));

        json.abortLingering(SUBTASK_0, 1);
        csv.abortLingering(SUBTASK_0, 0);

        assertThat(names(dir)).containsExactly("alerts-0-1-0.jsonl");
        assertThat(names(json.stagingDirectory())).isEmpty();
        assertThatThrownBy(() -> json.partPrefix("-x")).hasMessageContaining("option 'partPrefix'");
        assertThatThrownBy(() -> json.partPrefix("a/b")).hasMessageContaining("option 'partPrefix'");
        assertThatThrownBy(() -> json.rollAtBytes(0)).hasMessageContaining("option 'rollAtBytes'");
    }

    @Test
    void utf8LengthCountsBytesAsTheFileHoldsThem() {
        String text = "a,é€😀";
        assertThat(TransactionalPartWriter.utf8Length(text)).isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }
}
