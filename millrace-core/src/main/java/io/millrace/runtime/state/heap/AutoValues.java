package io.millrace.runtime.state.heap;

import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code state.heap.values: auto} for one state: counts the entries that come in and the reads and replacements
 * of stored values, and decides from time to time whether the state keeps its values as objects or encoded
 * ({@link ValueArena}). A large state whose values are read or replaced less often than new ones come in (a
 * join's waiting rows, q3's persons) is encoded: young collections then copy none of it, where kept as objects
 * every value it gains is copied once or twice before it is old, and those copies are what the collections'
 * pauses are made of. A state read or replaced more than four times per new entry is decoded again, since each
 * read of an encoded value decodes a copy. Only {@linkplain ImmutableClasses immutable} values are encoded: the
 * first mutable one (there, or written later) sends the state back to objects for good, so that changing a value
 * in place keeps working as it does with objects. Task thread only.
 */
final class AutoValues {
    private static final Logger LOG = LoggerFactory.getLogger(AutoValues.class);
    /** Inserts and accesses between the first two decisions; doubled after each change, so a state changes rarely. */
    static final long FIRST_PERIOD = 1 << 14;
    static final long MAX_PERIOD = 1 << 24;
    /**
     * Entries (all groups of the subtask) below which a state stays objects: young collections copy little of it.
     * Small enough that a growing state is encoded within its first second or so, in a few milliseconds.
     */
    static final long MIN_ENTRIES = 1 << 13;
    /** Encoded when reads and replacements per entry coming in are below this ... */
    static final double ENCODE_BELOW = 1.0;
    /** ... and decoded again when they are above this. */
    static final double DECODE_ABOVE = 4.0;

    private final long minEntries;
    private final long maxPeriod;
    /** Makes the codec of a state, by its name. */
    private final Function<String, ArenaCodec> codecs;
    private long period;
    private long inserts;
    private long accesses;
    /** Set once a value was met that cannot be kept encoded (mutable, or refused by the codec): objects for good. */
    private boolean off;
    private ArenaCodec codec;
    private int changes;
    private boolean encoded;

    AutoValues() {
        this(FIRST_PERIOD, MAX_PERIOD, MIN_ENTRIES, ArenaCodec::new);
    }

    /**
     * For tests: decisions every {@code period} inserts and accesses (doubling up to {@code maxPeriod}), from
     * {@code minEntries}, encoding with the codec {@code codecs} makes for a state's name.
     */
    AutoValues(long period, long maxPeriod, long minEntries, Function<String, ArenaCodec> codecs) {
        this.period = period;
        this.maxPeriod = maxPeriod;
        this.minEntries = minEntries;
        this.codecs = codecs;
    }

    /**
     * A read or replacement of a stored value. With {@code mayEncode} false (the caller may go on to change the
     * object it reads in place, as list state's append to objects does) only a decision to decode is taken here.
     */
    void access(StateTable table, boolean mayEncode) {
        if (off) {
            return;
        }
        if (++accesses + inserts >= period && (mayEncode || table.serialized())) {
            decide(table);
        }
    }

    /** An entry about to come in with {@code value} (as the table stores it). */
    void insert(StateTable table, Object value) {
        if (off) {
            return;
        }
        if (++inserts + accesses >= period) {
            decide(table); // first: the value below must not go into a state encoded just now unchecked
        }
        if (table.serialized() && !KeyTable.immutableValue(value)) {
            refuse(table, value, "can change in place");
        }
    }

    /** {@code value}, about to be written, cannot be kept encoded ({@code why}): objects from now on. */
    void refuse(StateTable table, Object value, String why) {
        off = true;
        if (table.serialized()) {
            table.decodeAll();
            encoded = false;
            changes++;
        }
        LOG.info("{}: state '{}' keeps its values as objects from now on: a value of {} {}",
                table.backend.operatorLabel(), table.name, value.getClass().getName(), why);
    }

    /**
     * The codec refused {@code value} ({@code refusal}, whose cause says why; its own message names the serialized
     * mode, which this state was not asked for): objects from now on.
     */
    void refuseUnencodable(StateTable table, Object value, IllegalArgumentException refusal) {
        Throwable why = refusal.getCause() != null ? refusal.getCause() : refusal;
        refuse(table, value, "cannot be encoded (" + why.getMessage() + ")");
    }

    /** Whether values of this state are never encoded again. */
    boolean off() {
        return off;
    }

    /** Whether the state keeps its values encoded now. */
    boolean encoded() {
        return encoded;
    }

    /** How many times the state changed between objects and encoded values. */
    int changes() {
        return changes;
    }

    private void decide(StateTable table) {
        long in = inserts;
        long touched = accesses;
        inserts = 0;
        accesses = 0;
        if (!table.serialized()) {
            long size;
            if (touched >= in * ENCODE_BELOW || (size = table.size()) < minEntries) {
                return;
            }
            if (codec == null) {
                codec = codecs.apply(table.name);
            }
            if (!table.encodeAll(codec)) {
                off = true;
                LOG.info("{}: state '{}' keeps its values as objects: not all of them are immutable and encodable",
                        table.backend.operatorLabel(), table.name);
                return;
            }
            changed(table, "encoded", size, in, touched);
        } else if (touched > in * DECODE_ABOVE) {
            table.decodeAll();
            changed(table, "as objects", table.size(), in, touched);
        }
    }

    /** The state now keeps its values {@code how} ("encoded" or "as objects"). */
    private void changed(StateTable table, String how, long size, long in, long touched) {
        changes++;
        encoded = table.serialized();
        period = Math.min(maxPeriod, period * 2);
        LOG.info("{}: state '{}' ({} entries; {} reads or replacements for {} new entries) keeps its values {} now",
                table.backend.operatorLabel(), table.name, size, touched, in, how);
    }
}
