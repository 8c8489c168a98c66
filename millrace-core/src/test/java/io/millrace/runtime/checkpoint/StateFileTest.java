package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.runtime.state.SnapshotFiles.StateFileWriter;
import io.millrace.runtime.state.StateHandle;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** State files: writer and verifying reader of {@link LocalCheckpointStorage}. */
class StateFileTest {
    @TempDir
    Path dir;

    @Test
    void whenWrittenInKeyGroupSections_thenReadBackWithSkipToAnyOffset() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        Random random = new Random(42);
        int groups = 8;
        long[] offsets = new long[groups];
        byte[] big = new byte[200_000];
        random.nextBytes(big);
        StateHandle handle;
        try (StateFileWriter writer = storage.createStateFile(3, "counts-0.keyed")) {
            DataOutputStream out = new DataOutputStream(writer.stream());
            for (int g = 0; g < groups; g++) {
                offsets[g] = writer.position();
                out.writeInt(g);
                out.writeLong(g * 1_000_000_007L);
                if (g == 5) {
                    out.write(big);
                }
                out.writeUTF("group " + g);
            }
            out.close();
            handle = writer.closeAndGetHandle();
        }

        assertThat(handle.path()).isEqualTo("chk-3/counts-0.keyed");
        assertThat(handle.size()).isEqualTo(Files.size(storage.checkpointRoot().resolve(handle.path())));
        CRC32 crc = new CRC32();
        crc.update(Files.readAllBytes(storage.checkpointRoot().resolve(handle.path())));
        assertThat(handle.crc32()).isEqualTo(crc.getValue());

        for (int g = groups - 1; g >= 0; g--) {
            try (DataInputStream in = new DataInputStream(storage.openStateFile(handle))) {
                in.skipNBytes(offsets[g]);
                assertThat(in.readInt()).isEqualTo(g);
                assertThat(in.readLong()).isEqualTo(g * 1_000_000_007L);
                if (g == 5) {
                    assertThat(in.readNBytes(big.length)).isEqualTo(big);
                }
                assertThat(in.readUTF()).isEqualTo("group " + g);
            }
        }
        try (InputStream in = storage.openStateFile(handle)) {
            assertThat(in.readAllBytes()).hasSize((int) handle.size());
        }
    }

    @Test
    void whenAByteIsFlipped_thenReadingToTheEndFailsNamingTheFile() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle handle = write(storage, 1, "map-1.keyed", 100_000);
        flipByte(storage.checkpointRoot().resolve(handle.path()), 50_000);

        try (InputStream in = storage.openStateFile(handle)) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(CheckpointFileDamagedException.class)
                    .hasMessage("chk-1/map-1.keyed: CRC mismatch");
        }
    }

    @Test
    void whenTruncatedOrMissing_thenOpeningFailsNamingTheFile() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle truncated = write(storage, 1, "a", 1000);
        StateHandle missing = write(storage, 1, "b", 10);
        try (RandomAccessFile file = new RandomAccessFile(storage.checkpointRoot().resolve(truncated.path()).toFile(), "rw")) {
            file.setLength(999);
        }
        Files.delete(storage.checkpointRoot().resolve(missing.path()));

        assertThatThrownBy(() -> storage.openStateFile(truncated)).hasMessage("chk-1/a: size mismatch: expected 1000 bytes, found 999");
        assertThatThrownBy(() -> storage.openStateFile(missing)).hasMessage("chk-1/b: missing");
    }

    @Test
    void whenAbandoned_thenTheFileIsGone_andCloseIsIdempotent() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateFileWriter writer = storage.createStateFile(2, "x");
        writer.stream().write(new byte[] {1, 2, 3});
        Path file = storage.checkpointRoot().resolve("chk-2/x");
        assertThat(file).exists();

        writer.close();
        writer.close();

        assertThat(file).doesNotExist();
        assertThatThrownBy(writer::closeAndGetHandle).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenTheSameNameIsCreatedTwiceInOneCheckpoint_thenTheSecondFails() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        write(storage, 4, "same", 5);

        assertThatThrownBy(() -> storage.createStateFile(4, "same")).isInstanceOf(IOException.class);
    }

    static StateHandle write(CheckpointStorage storage, long checkpointId, String name, int size) throws IOException {
        byte[] bytes = new byte[size];
        new Random(size * 31L + name.hashCode()).nextBytes(bytes);
        try (StateFileWriter writer = storage.createStateFile(checkpointId, name)) {
            writer.stream().write(bytes);
            return writer.closeAndGetHandle();
        }
    }

    static void flipByte(Path file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            int b = raf.read();
            raf.seek(position);
            raf.write(b ^ 0x01);
        }
    }
}
