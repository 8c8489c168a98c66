package io.millrace.rocksdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.StringAppendOperator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One RocksDB instance in its own working directory: the bytes store under a backend. The database lives
 * in {@code db/} of the working directory, native checkpoints for incremental snapshots in
 * {@code snapshots/}. Column families are created on demand, one per state or timer service; the default
 * column family holds metadata. A store opened on existing database files (a restore) opens all of theirs.
 * Memory comes from the process-wide {@link SharedMemory}. Writes skip the write-ahead log: the working
 * directory never outlives the backend, and durability will come from checkpoints.
 *
 * <p>Lifecycle: OPEN → CLOSING → CLOSED. {@link #close} is idempotent: it waits until no snapshot reader
 * is inside the store (readers give up at their next step once it is closing), closes the open
 * {@link StoreView}s, releases every native object (column family handles, the database, options,
 * filter, shared memory), then deletes the directory. Task thread only, except that {@code close} may run
 * on another thread once the task stopped, and {@link StoreView}s are read on a snapshot writer thread.
 */
final class RocksDbStore implements AutoCloseable {
    private static final String DATABASE = "db";
    private static final String SNAPSHOTS = "snapshots";

    /** Size of one partition of a file's index or filter. */
    private static final long METADATA_BLOCK_BYTES = 4096;
    private final Path directory;
    private final SharedMemory memory;
    private final BloomFilter filter;
    /** Concatenates merge operands with no delimiter: list appends ({@link ListRows}). */
    private final StringAppendOperator concatenation;
    private final ColumnFamilyOptions columnOptions;
    private final DBOptions dbOptions;
    final WriteOptions writes;
    final ReadOptions reads;
    final ReadOptions scans;
    private final RocksDB db;
    private final BytesColumn meta;
    private final Map<String, BytesColumn> columns = new LinkedHashMap<>();
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    /** Views not closed yet, and snapshot readers inside the store; guarded by {@code this}. */
    private final Set<StoreView> views = new HashSet<>();
    private int readers;
    private volatile boolean closing;

    /** Puts the files of an existing database into an empty directory. */
    @FunctionalInterface
    interface DatabaseFiles {
        void copyInto(Path database) throws IOException;
    }

    private RocksDbStore(Path directory, SharedMemory memory, boolean existing) throws RocksDBException {
        this.directory = directory;
        this.memory = memory;
        this.filter = new BloomFilter(10, false);
        this.concatenation = new StringAppendOperator("");
        // Index and filter in partitions of METADATA_BLOCK_BYTES, only their top level pinned: the cache is split
        // into shards (512 KB each for 4 MB), and a file's whole filter (1.2 bytes per key) larger than a shard
        // would be evicted right after each use and read again from the file on every point read.
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(memory.cache())
                .setCacheIndexAndFilterBlocks(true)
                .setCacheIndexAndFilterBlocksWithHighPriority(true)
                .setIndexType(IndexType.kTwoLevelIndexSearch)
                .setPartitionFilters(true)
                .setMetadataBlockSize(METADATA_BLOCK_BYTES)
                .setPinTopLevelIndexAndFilter(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                .setFilterPolicy(filter);
        long writeBuffer = memory.writeBufferSize();
        // LZ4 rather than RocksDB's default Snappy: files as small, written faster; an incremental checkpoint waits
        // for the memtables' flush, so its synchronous pause depends on the compression's speed.
        this.columnOptions = new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setMergeOperator(concatenation)
                .setWriteBufferSize(writeBuffer)
                .setArenaBlockSize(Math.min(1L << 20, writeBuffer / 8))
                .setCompressionType(CompressionType.LZ4_COMPRESSION);
        this.dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setWriteBufferManager(memory.writeBuffers())
                .setMaxBackgroundJobs(2)
                .setInfoLogLevel(InfoLogLevel.HEADER_LEVEL)
                .setKeepLogFileNum(1)
                .setStatsDumpPeriodSec(0)
                .setAvoidFlushDuringShutdown(true);
        this.writes = new WriteOptions().setDisableWAL(true);
        this.reads = new ReadOptions();
        this.scans = new ReadOptions().setFillCache(false);
        List<ColumnFamilyHandle> opened = new ArrayList<>(1);
        String path = directory.resolve(DATABASE).toString();
        try {
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, columnOptions));
            if (existing) {
                try (Options listing = new Options()) {
                    for (byte[] name : RocksDB.listColumnFamilies(listing, path)) {
                        if (!Arrays.equals(name, RocksDB.DEFAULT_COLUMN_FAMILY)) {
                            descriptors.add(new ColumnFamilyDescriptor(name, columnOptions));
                        }
                    }
                }
            }
            this.db = RocksDB.open(dbOptions, path, descriptors, opened);
        } catch (RocksDBException | RuntimeException e) {
            closeOptions();
            throw e;
        }
        handles.addAll(opened);
        this.meta = new BytesColumn("metadata", this, opened.get(0));
        for (int i = 1; i < opened.size(); i++) {
            String name = new String(opened.get(i).getName(), StandardCharsets.UTF_8);
            columns.put(name, new BytesColumn(name, this, opened.get(i)));
        }
    }

    /**
     * Opens a fresh store in a new directory under {@code base}, named after the operator and key groups.
     * On failure nothing stays open and the directory is gone.
     */
    static RocksDbStore open(Path base, String prefix, SharedMemory memory) {
        return open(base, prefix, memory, null);
    }

    /**
     * Opens a store in a new directory under {@code base} on the database that {@code files} puts into its
     * database directory (a fresh database when null). Takes over {@code memory}: on failure nothing stays
     * open, the memory is released and the directory is gone.
     */
    static RocksDbStore open(Path base, String prefix, SharedMemory memory, DatabaseFiles files) {
        Path dir;
        try {
            dir = WorkingDirectories.create(base, prefix);
        } catch (IOException e) {
            memory.release();
            throw new UncheckedIOException("cannot create a RocksDB working directory under " + base
                    + " (option " + RocksDbConfig.DIRECTORY_OPTION + ")", e);
        }
        try {
            Files.createDirectory(dir.resolve(DATABASE));
            if (files != null) {
                files.copyInto(dir.resolve(DATABASE));
            }
            return new RocksDbStore(dir, memory, files != null);
        } catch (IOException e) {
            memory.release();
            deleteRecursively(dir);
            throw new UncheckedIOException("cannot put the RocksDB files into " + dir + ": " + e.getMessage(), e);
        } catch (RocksDBException | RuntimeException e) {
            memory.release();
            deleteRecursively(dir);
            throw new StateStorageException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Takes a native checkpoint into a new directory under {@code snapshots/}: memtables are flushed, and
     * the live files are hard-linked (the small manifest and options files copied). The files never change
     * afterwards, whatever the database does. Task thread; the caller deletes the directory.
     */
    Path checkpoint(String name) {
        Path target = directory.resolve(SNAPSHOTS).resolve(name);
        try {
            deleteRecursively(target);
            Files.createDirectories(target.getParent());
            try (Checkpoint checkpoint = Checkpoint.create(db())) {
                checkpoint.createCheckpoint(target.toString());
            }
            return target;
        } catch (IOException | RocksDBException e) {
            deleteRecursively(target);
            throw new StateStorageException("cannot take a RocksDB checkpoint into " + target + ": " + e.getMessage(), e);
        }
    }

    SharedMemory memory() {
        return memory;
    }

    Path directory() {
        return directory;
    }

    RocksDB db() {
        if (closing) {
            throw new IllegalStateException("the RocksDB store in " + directory + " is closed");
        }
        return db;
    }

    /** The metadata column: state descriptions and value types, for future snapshots and schema checks. */
    BytesColumn meta() {
        return meta;
    }

    /** Whether {@link #close} has begun: readers on other threads stop at their next step. */
    boolean closing() {
        return closing;
    }

    /** A consistent view of every column as of now; cheap (a RocksDB snapshot). Task thread. */
    synchronized StoreView view() {
        StoreView view = new StoreView(db());
        views.add(view);
        return view;
    }

    /** Releases a view's native objects unless the store did already; idempotent. */
    synchronized void closeView(StoreView view) {
        if (views.remove(view)) {
            view.free();
        }
    }

    /** Enters the store to read a view from another thread; false once closing. Pair with {@link #exit}. */
    synchronized boolean enter() {
        if (closing) {
            return false;
        }
        readers++;
        return true;
    }

    synchronized void exit() {
        readers--;
        notifyAll();
    }

    /** Applies a batch of writes atomically (the state cache's write-backs). Task thread. */
    void write(WriteBatch batch) {
        try {
            db().write(writes, batch);
        } catch (RocksDBException e) {
            throw new StateStorageException("cannot write a batch of " + batch.count() + " rows to RocksDB in " + directory, e);
        }
    }

    /** The column family of that name, created on first use. */
    BytesColumn column(String name) {
        BytesColumn c = columns.get(name);
        if (c == null) {
            try {
                ColumnFamilyHandle h = db().createColumnFamily(
                        new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), columnOptions));
                handles.add(h);
                c = new BytesColumn(name, this, h);
                columns.put(name, c);
            } catch (RocksDBException e) {
                throw new StateStorageException("cannot create column family '" + name + "' in " + directory, e);
            }
        }
        return c;
    }

    /** A RocksDB property of a column as a number, e.g. "rocksdb.estimate-num-keys"; for metrics and tests. */
    long property(BytesColumn column, String property) {
        try {
            return db().getLongProperty(column.handle(), property);
        } catch (RocksDBException e) {
            throw new StateStorageException("cannot read " + property + " of " + column.name(), e);
        }
    }

    /** Flushes memtables and compacts every column fully; for tests and tooling, not the record path. */
    void compactAll() {
        try {
            for (ColumnFamilyHandle h : handles) {
                db().compactRange(h);
            }
        } catch (RocksDBException e) {
            throw new StateStorageException("cannot compact RocksDB in " + directory, e);
        }
    }

    /** Total bytes of the files in the working directory. */
    long diskBytes() {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
            boolean interrupted = false;
            while (readers > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            for (StoreView view : views) {
                view.free();
            }
            views.clear();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        RuntimeException failure = null;
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        handles.clear();
        columns.clear();
        try {
            db.closeE();
        } catch (RocksDBException e) {
            failure = new StateStorageException("closing RocksDB in " + directory + " failed", e);
        }
        closeOptions();
        memory.release();
        try {
            deleteRecursively(directory);
        } catch (UncheckedIOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void closeOptions() {
        writes.close();
        reads.close();
        scans.close();
        dbOptions.close();
        columnOptions.close();
        filter.close();
        concatenation.close();
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete RocksDB working directory " + dir, e);
        }
    }
}
