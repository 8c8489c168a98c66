package io.millrace.runtime.state.heap;

import java.util.Arrays;
import java.util.List;

/**
 * The values of one state in one key group, serialized into a few large byte arrays ({@code state.heap.values:
 * serialized}). A young collection copies the objects a state gained since the last one, again at every
 * collection until they are old: a join that keeps every row it has seen made collections copy 67-97 MB each.
 * Bytes in an array that is large enough to be allocated straight into the old generation are never copied.
 *
 * <p>A value is a record {@code [int length][bytes]} found by a handle ({@code chunk + 1} in the high 32 bits,
 * the offset in the low 32; 0 is no value). In a list arena a key's elements are a chain of cells
 * {@code [int length][long previous cell][bytes]}, the handle naming the last cell, so that adding an element
 * writes only that element. Records are only ever appended: bytes below the write position never change, so a
 * snapshot may keep a copy of the handles and the chunk array and copy the bytes later on another thread
 * ({@link Frozen}). A replaced or removed record is dead; once dead bytes outweigh live ones
 * ({@link #wantsCompaction}), the owner copies the live records into fresh chunks ({@link #compact}).
 *
 * <p>Chunks start small and grow eightfold up to {@link #MAX_CHUNK}, which is sized from the G1 region so that a
 * full chunk is a humongous object of one region. Task thread only, except {@link Frozen#writeValue}.
 */
final class ValueArena {
    /** Bytes of the first chunk. */
    static final int FIRST_CHUNK = 1024;
    /**
     * Each chunk is this many times the previous one, up to {@link #MAX_CHUNK}: a growing state's small chunks are
     * young arrays that collections copy until they are old, so a table reaches full-size chunks after three.
     */
    static final int GROWTH = 8;
    /** Bytes of a full-size chunk: just under one G1 region (1 MB when that is unknown). */
    static final int MAX_CHUNK = maxChunk();
    /** Dead bytes below which no compaction is worth it. */
    static final int MIN_DEAD_TO_COMPACT = 64 * 1024;
    private static final int VALUE_HEADER = 4;
    private static final int CELL_HEADER = 12;
    private static final byte[][] NO_CHUNKS = new byte[0][];

    private final ArenaCodec codec;
    private final boolean lists;
    private byte[][] chunks = NO_CHUNKS;
    private int chunkCount;
    private byte[] current;
    private int offset;
    /** Bytes of records written since the last compaction, counting the unused tails of filled chunks. */
    private long used;
    /** Bytes of records still referenced. */
    private long live;

    ValueArena(ArenaCodec codec, boolean lists) {
        this.codec = codec;
        this.lists = lists;
    }

    /** An empty arena of the same state and kind. */
    ValueArena empty() {
        return new ValueArena(codec, lists);
    }

    long liveBytes() {
        return live;
    }

    long usedBytes() {
        return used;
    }

    /** Bytes held in chunks, used or not. */
    long capacityBytes() {
        long n = 0;
        for (int i = 0; i < chunkCount; i++) {
            n += chunks[i].length;
        }
        return n;
    }

    /** Stores {@code value} (a list arena: a single element or {@link HeapListState.Elements}); returns its handle. */
    long write(Object value) {
        if (!lists) {
            byte[] bytes = codec.scratch(value);
            int length = codec.scratchSize();
            long h = reserve(VALUE_HEADER + length);
            byte[] chunk = chunks[(int) (h >>> 32) - 1];
            int at = (int) h;
            putInt(chunk, at, length);
            System.arraycopy(bytes, 0, chunk, at + VALUE_HEADER, length);
            return h;
        }
        if (value instanceof HeapListState.Elements e) {
            long last = 0;
            for (int i = 0; i < e.size(); i++) {
                last = append(last, e.get(i));
            }
            return last;
        }
        return append(0, value);
    }

    /** List arenas: adds {@code element} after the chain ending at {@code last} (0: a new chain); returns the new last cell. */
    long append(long last, Object element) {
        byte[] bytes = codec.scratch(element);
        int length = codec.scratchSize();
        long h = reserve(CELL_HEADER + length);
        byte[] chunk = chunks[(int) (h >>> 32) - 1];
        int at = (int) h;
        putInt(chunk, at, length);
        putLong(chunk, at + 4, last);
        System.arraycopy(bytes, 0, chunk, at + CELL_HEADER, length);
        return h;
    }

    /** The value of {@code handle}; a list arena gives its single element or an {@link HeapListState.Elements}. */
    Object read(long handle) {
        return read(chunks, handle);
    }

    private Object read(byte[][] in, long handle) {
        if (!lists) {
            byte[] chunk = in[(int) (handle >>> 32) - 1];
            int at = (int) handle;
            return codec.read(chunk, at + VALUE_HEADER, getInt(chunk, at));
        }
        int n = chainLength(in, handle);
        if (n == 1) {
            byte[] chunk = in[(int) (handle >>> 32) - 1];
            int at = (int) handle;
            return codec.read(chunk, at + CELL_HEADER, getInt(chunk, at));
        }
        Object[] items = new Object[n];
        long h = handle;
        for (int i = n - 1; i >= 0; i--) {
            byte[] chunk = in[(int) (h >>> 32) - 1];
            int at = (int) h;
            items[i] = codec.read(chunk, at + CELL_HEADER, getInt(chunk, at));
            h = getLong(chunk, at + 4);
        }
        return new HeapListState.Elements(items);
    }

    /** Marks the record (list arenas: the whole chain) of {@code handle} dead. */
    void free(long handle) {
        if (!lists) {
            byte[] chunk = chunks[(int) (handle >>> 32) - 1];
            live -= VALUE_HEADER + getInt(chunk, (int) handle);
            return;
        }
        for (long h = handle; h != 0; ) {
            byte[] chunk = chunks[(int) (h >>> 32) - 1];
            int at = (int) h;
            live -= CELL_HEADER + getInt(chunk, at);
            h = getLong(chunk, at + 4);
        }
    }

    /** Whether enough of the bytes are dead that copying the live ones into fresh chunks pays. */
    boolean wantsCompaction() {
        long dead = used - live;
        return dead > MIN_DEAD_TO_COMPACT && dead > live;
    }

    /**
     * Copies the records of {@code handles[0..n)} (0 entries skipped) into a new arena, which it returns, rewriting
     * the handles; list chains keep their order. Bytes are copied as they are, not decoded.
     */
    ValueArena compact(long[] handles, int n) {
        ValueArena target = empty();
        for (int p = 0; p < n; p++) {
            long h = handles[p];
            if (h != 0) {
                handles[p] = lists ? copyChain(target, h) : copyValue(target, h);
            }
        }
        return target;
    }

    private long copyValue(ValueArena target, long h) {
        byte[] chunk = chunks[(int) (h >>> 32) - 1];
        int at = (int) h;
        int size = VALUE_HEADER + getInt(chunk, at);
        long copy = target.reserve(size);
        System.arraycopy(chunk, at, target.chunks[(int) (copy >>> 32) - 1], (int) copy, size);
        return copy;
    }

    private long copyChain(ValueArena target, long last) {
        long previous = 0;
        for (long cell : cellsInOrder(chunks, last)) {
            byte[] chunk = chunks[(int) (cell >>> 32) - 1];
            int at = (int) cell;
            int size = CELL_HEADER + getInt(chunk, at);
            long copy = target.reserve(size);
            byte[] to = target.chunks[(int) (copy >>> 32) - 1];
            System.arraycopy(chunk, at, to, (int) copy, size);
            putLong(to, (int) copy + 4, previous);
            previous = copy;
        }
        return previous;
    }

    /** The handles {@code handles[0..n)} and the chunks as they are now, readable later on any thread. */
    Frozen freeze(long[] handles, int n) {
        return new Frozen(this, Arrays.copyOf(chunks, chunkCount), Arrays.copyOf(handles, n));
    }

    /**
     * A snapshot's copy of a group's values: the chunks hold every byte the handles reach, and those bytes never
     * change, so copying them later (on the checkpoint writer's thread) gives the values as they were at the copy.
     */
    static final class Frozen {
        private final ValueArena arena;
        private final byte[][] chunks;
        private final long[] handles;

        private Frozen(ValueArena arena, byte[][] chunks, long[] handles) {
            this.arena = arena;
            this.chunks = chunks;
            this.handles = handles;
        }

        int size() {
            return handles.length;
        }

        /**
         * The value at {@code position}, decoded now (a list arena: an element or {@link HeapListState.Elements}); on
         * the thread that owns the state, as decoding uses its codec (tests read frozen values this way).
         */
        Object value(int position) {
            return arena.read(chunks, handles[position]);
        }

        /**
         * Writes the value at {@code position} as {@code values} would encode it (a list as a list of its elements),
         * copying its bytes rather than decoding and encoding it again; the caller puts the arena's shapes
         * ({@link ArenaCodec#copyShapesInto}) into the dictionary written with these bytes.
         */
        void writeValue(int position, io.millrace.runtime.state.serde.StateSerializer values,
                io.millrace.runtime.state.serde.ByteWriter out) {
            long handle = handles[position];
            if (!arena.lists) {
                byte[] chunk = chunks[(int) (handle >>> 32) - 1];
                int at = (int) handle;
                out.write(chunk, at + VALUE_HEADER, getInt(chunk, at));
                return;
            }
            long[] cells = cellsInOrder(chunks, handle);
            values.writeListStart(cells.length, out);
            for (long cell : cells) {
                byte[] chunk = chunks[(int) (cell >>> 32) - 1];
                int at = (int) cell;
                out.write(chunk, at + CELL_HEADER, getInt(chunk, at));
            }
        }

        /** The codec whose dictionary holds the shapes of these bytes. */
        ArenaCodec codec() {
            return arena.codec;
        }
    }

    /** Room for {@code size} bytes at the write position, taking a new chunk when the current one is full. */
    private long reserve(int size) {
        if (current == null || offset + size > current.length) {
            newChunk(size);
        }
        long h = ((long) chunkCount << 32) | offset;
        offset += size;
        used += size;
        live += size;
        return h;
    }

    private void newChunk(int size) {
        if (current != null) {
            used += current.length - offset; // the unused tail is as good as dead
        }
        int length = chunkCount == 0 ? FIRST_CHUNK : (int) Math.min(MAX_CHUNK, (long) chunks[chunkCount - 1].length * GROWTH);
        current = new byte[Math.max(length, size)];
        if (chunkCount == chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(4, chunkCount * 2));
        }
        chunks[chunkCount++] = current;
        offset = 0;
    }

    /** The cells of the chain ending at {@code last}, first to last. */
    private static long[] cellsInOrder(byte[][] in, long last) {
        long[] cells = new long[chainLength(in, last)];
        long h = last;
        for (int i = cells.length - 1; i >= 0; i--) {
            cells[i] = h;
            h = getLong(in[(int) (h >>> 32) - 1], (int) h + 4);
        }
        return cells;
    }

    private static int chainLength(byte[][] in, long last) {
        int n = 0;
        for (long h = last; h != 0; n++) {
            h = getLong(in[(int) (h >>> 32) - 1], (int) h + 4);
        }
        return n;
    }

    private static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static long getLong(byte[] b, int at) {
        return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xFFFF_FFFFL);
    }

    private static void putLong(byte[] b, int at, long v) {
        putInt(b, at, (int) (v >>> 32));
        putInt(b, at + 4, (int) v);
    }

    /**
     * Just under one G1 region, so that a full chunk is allocated straight into a region of its own (a humongous
     * object: at least half a region) and never copied; 1 MB under another collector or when the region is unknown.
     */
    private static int maxChunk() {
        long region = 1 << 20;
        try {
            var bean = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            boolean g1 = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .anyMatch(b -> b.getName().startsWith("G1"));
            if (bean != null && g1) {
                region = Long.parseLong(bean.getVMOption("G1HeapRegionSize").getValue());
            }
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot, or no such option: keep 1 MB
        }
        long chunk = Math.max(64 * 1024, Math.min(region, 32L << 20)) - 64; // the array header fits in the same region
        return (int) chunk;
    }

    /** For tests: the chunk lengths. */
    List<Integer> chunkLengths() {
        Integer[] out = new Integer[chunkCount];
        for (int i = 0; i < chunkCount; i++) {
            out[i] = chunks[i].length;
        }
        return List.of(out);
    }
}
