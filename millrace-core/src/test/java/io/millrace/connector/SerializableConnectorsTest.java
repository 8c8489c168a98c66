package io.millrace.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.sink.SinkContext;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.file.CsvEncoder;
import io.millrace.connector.file.CsvFormat;
import io.millrace.connector.file.FileSink;
import io.millrace.connector.file.FileSource;
import io.millrace.connector.file.FileSplit;
import io.millrace.connector.file.JsonLines;
import io.millrace.connector.file.PendingPart;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.connector.generator.IndexRange;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.MachineGroupSplit;
import io.millrace.sim.SimulatorConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime copies sources, sinks and splits by Java serialization; the copies must work. */
class SerializableConnectorsTest {
    @TempDir
    Path dir;

    record Row(String a, long b) {}

    record Subtask(int subtaskIndex, int parallelism, Clock clock, String sinkName) implements SinkContext {}

    @SuppressWarnings("unchecked")
    private static <T extends Serializable> T copy(T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void copiedSourcesSinksAndSplitsWorkLikeTheOriginals() throws Exception {
        GeneratorSource<String> generator = copy(GeneratorSource.builder(i -> "e" + i).count(10).timestamps(i -> i).build());
        assertThat(generator.createSplits(2)).extracting(IndexRange::end).containsExactly(5L, 10L);

        Path csv = Files.writeString(dir.resolve("a.csv"), "a,b\nx,1\n");
        FileSource<Row> rows = copy(FileSource.of(CsvFormat.withHeader().map(r -> new Row(r.get("a"), r.getLong("b"))), csv));
        List<FileSplit> splits = copy(new java.util.ArrayList<>(rows.createSplits(1)));
        var reader = rows.createReader(TestReaderContext.single(new ManualClock(0)));
        reader.addSplits(splits);
        reader.noMoreSplits();
        RecordingOutput<Row> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 10);
        assertThat(out.values).containsExactly(new Row("x", 1));

        assertThat(copy(FileSource.of(JsonLines.of(Row.class), csv)).createSplits(1)).hasSize(1);
        FileSink<Row> sink = copy(FileSink.csv(dir.resolve("out"), CsvEncoder.ofRecord(Row.class)));
        assertThat(sink.partFile(3)).hasFileName("part-3.csv");

        TransactionalFileSink<Row> exactlyOnce = copy(TransactionalFileSink.csv(dir.resolve("eo"), CsvEncoder.ofRecord(Row.class)));
        SinkContext context = new Subtask(0, 1, new ManualClock(0), "eo");
        var writer = exactlyOnce.createWriter(context);
        writer.write(new Row("x", 1), 0);
        List<PendingPart> parts = copy(new java.util.ArrayList<>(writer.prepareCommit(1)));
        exactlyOnce.createCommitter(context).commit(parts);
        assertThat(Files.readAllLines(dir.resolve("eo/part-0-1-0.csv"))).containsExactly("a,b", "x,1");

        FactorySimulator sim = copy(new FactorySimulator(SimulatorConfig.builder().machines(4).maxEvents(100).build()));
        MachineGroupSplit split = copy(sim.createSplits(2).get(1));
        assertThat(split.quota()).isEqualTo(50);
    }
}
