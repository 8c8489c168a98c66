package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.source.CollectionSource;
import io.millrace.api.source.VersionedCodec;
import io.millrace.connector.file.FileSource;
import io.millrace.connector.file.FileSplit;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.connector.generator.IndexRange;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.MachineGroupSplit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The operator-state file layout, and the versioned codecs of the built-in sources' splits. */
class OperatorStateFormatTest {
    private static List<Serializable> roundTrip(List<? extends Serializable> items) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OperatorStateFormat.write(items, bytes);
        return OperatorStateFormat.read(new ByteArrayInputStream(bytes.toByteArray()), "test.op");
    }

    @Test
    void versionedItemsAndObjects_comeBackAsWritten_inOrder() throws IOException {
        List<Serializable> read = roundTrip(List.of(new VersionedBytes(VersionedBytes.SPLIT, 3, new byte[] {1, 2, 3}), "an object",
                new VersionedBytes(VersionedBytes.ENUMERATOR, 1, new byte[0])));

        assertThat(read).hasSize(3);
        VersionedBytes first = (VersionedBytes) read.get(0);
        assertThat(first.kind()).isEqualTo(VersionedBytes.SPLIT);
        assertThat(first.version()).isEqualTo(3);
        assertThat(first.bytes()).containsExactly(1, 2, 3);
        assertThat(read.get(1)).isEqualTo("an object");
        assertThat(((VersionedBytes) read.get(2)).kind()).isEqualTo(VersionedBytes.ENUMERATOR);
    }

    @Test
    void aListWrittenWholeByJavaSerialization_isStillRead() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(List.of(new CollectionSource.Position(7))));
        }
        assertThat(OperatorStateFormat.read(new ByteArrayInputStream(bytes.toByteArray()), "old.op"))
                .containsExactly(new CollectionSource.Position(7));
    }

    @Test
    void aFileOfAnotherFormatVersionOrNotOperatorState_isRefusedNamingIt() {
        byte[] newer = {0x4D, 0x4F, 0x50, 0x53, 0, 9, 0, 0, 0, 0};
        assertThatThrownBy(() -> OperatorStateFormat.read(new ByteArrayInputStream(newer), "x/newer.op"))
                .hasMessageContaining("x/newer.op").hasMessageContaining("format version 9");
        assertThatThrownBy(() -> OperatorStateFormat.read(new ByteArrayInputStream(new byte[] {1, 2, 3, 4}), "x/other.op"))
                .hasMessageContaining("x/other.op").hasMessageContaining("not an operator-state file");
    }

    @Test
    void builtInSplits_roundTripThroughTheirCodecs_andANewerVersionIsRefused() throws IOException {
        check(new CollectionSource<>(List.of(1)).splitCodec(), new CollectionSource.Position(42));
        check(FileSource.of(io.millrace.connector.file.JsonLines.of(String.class), Path.of("in.jsonl")).splitCodec(), new FileSplit("/data/in.jsonl", 1234L, 56L));
        check(GeneratorSource.of(i -> i, 10).splitCodec(), new IndexRange("gen-1", 5, 100, 2));
        check(new FactorySimulator(io.millrace.sim.SimulatorConfig.builder().machines(4).maxEvents(100).build()).splitCodec(), new MachineGroupSplit("machines-0", 0, 4, -1, 77, 1_700_000_000_000L, 12));
        VersionedCodec<CollectionSource.Position> codec = new CollectionSource<>(List.of(1)).splitCodec();
        assertThatThrownBy(() -> codec.decode(codec.version() + 1, codec.encode(new CollectionSource.Position(1))))
                .hasMessageContaining("reads versions 1 to " + codec.version());
        assertThatThrownBy(() -> codec.decode(1, new byte[] {0, 0})).hasMessageContaining("end early");
    }

    private static <S> void check(VersionedCodec<S> codec, S split) throws IOException {
        assertThat(codec.decode(codec.version(), codec.encode(split))).isEqualTo(split);
    }
}
