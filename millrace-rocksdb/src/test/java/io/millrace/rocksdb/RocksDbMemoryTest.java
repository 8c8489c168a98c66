package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many keys with a small managed-memory budget: the state spills to SST files, the shared cache stays
 * within its bound, and every sampled key reads back. The large version (20 million keys, 256 MB heap)
 * is {@link LargeStateSoakTest}.
 */
class RocksDbMemoryTest {
    private static final int KEYS = 600_000;
    @TempDir
    Path base;

    /**
     * Point reads after the state went to one SST file (a compaction) read a few small blocks each, not the file's
     * whole filter. The cache of 4 MB is split by RocksDB into shards of 512 KB; with one full filter per file
     * (about 1.2 bytes per key, here 750 KB) a filter larger than a shard was evicted as soon as it was used, and
     * every read of a key read it again from the file (20 M keys in a 256 MB heap slowed to about 1,500 records/s).
     * Partitioned filters and indexes (blocks of 4 KB) keep reads small. Bytes read are this process's
     * (/proc/self/io rchar, page cache included).
     */
    @Test
    void manyKeys_withFourMegabytesOfManagedMemory_spillToDisk_andReadBackWithSmallReads() throws IOException {
        long budget = 4L << 20;
        RocksDbConfig config = TestBackends.CONFIG.withBaseDirectory(base).withManagedMemoryBytes(budget);
        try (RocksDbKeyedStateBackend backend = new RocksDbKeyedStateBackend("many-keys", new KeyGroupRange(0, 127), 128, new ManualClock(0), config)) {
            long written = LargeStateSoakTest.writeKeys(backend, KEYS);
            assertThat(written).isEqualTo(KEYS);
            assertThat(backend.sstBytes()).as("state left memory for SST files").isGreaterThan(budget);
            assertThat(backend.managedMemoryUsage()).isLessThanOrEqualTo(budget + budget / 10);
            backend.compact();
            assertThat(compressionOfFiles()).as("compression of the SST files").containsOnly("LZ4");
            ValueState<Long> counts = backend.stateStore().getState(new ValueStateDescriptor<>("count"));
            Random random = new Random(1);
            int reads = 2_000;
            long before = bytesReadByThisProcess();
            for (int i = 0; i < reads; i++) {
                long k = random.nextInt(KEYS);
                backend.setCurrentKey(k);
                assertThat(counts.value()).isEqualTo(k % 1000);
            }
            assertThat((bytesReadByThisProcess() - before) / reads).as("bytes read from files per point read").isLessThan(64L << 10);
            assertThat(backend.managedMemoryUsage()).isLessThanOrEqualTo(budget + budget / 10);
        }
    }

    /** The compression named in the properties of each SST file under the base directory. */
    private List<String> compressionOfFiles() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(base)) {
            files = walk.filter(f -> f.toString().endsWith(".sst")).toList();
        }
        assertThat(files).isNotEmpty();
        List<String> names = new ArrayList<>();
        for (Path f : files) {
            try (Options options = new Options(); SstFileReader reader = new SstFileReader(options)) {
                reader.open(f.toString());
                names.add(reader.getTableProperties().getCompressionName());
            } catch (RocksDBException e) {
                throw new IOException("cannot read " + f, e);
            }
        }
        return names;
    }

    private static long bytesReadByThisProcess() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("rchar:")) {
                return Long.parseLong(line.substring(6).trim());
            }
        }
        throw new IllegalStateException("no rchar in /proc/self/io");
    }
}
