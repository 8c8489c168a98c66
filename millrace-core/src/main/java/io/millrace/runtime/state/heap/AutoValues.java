package io.millrace.runtime.state.heap;

import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code state.heap.values: auto} for one state: counts the entries that come in and the reads and replacements
 * of stored values, and decides from time to time whether the state keeps its values as objects or encoded
 * ({@link ValueArena}). A large state whose values are read or replaced less often than new ones come in (a
 * join's waiting rows) is encoded: young collections then copy none of it, where kept as objects
 * every value it gains is copied once or twice before it is old, and those copies are what the collections'
 * pauses are made of. A state read or replaced more than four times per new entry is decoded again, since each
 * read of an encoded value decodes a copy. Encoding pays only for values that outlive a young collection: a state
 * whose entries go about as fast as they come (those of a short window at a high rate) holds values that die young, which a collection never copies; such a state stays, or goes back
 * to, objects. An entry's lifetime is estimated at each decision by Little's law, the entries held times the time
 * over the entries gone, both summed over the last few decisions (a join removes its entries in bursts, when a
 * window ends), and never taken as longer than the state has had entries; it is compared with the mean time
 * between the JVM's young collections ({@link CollectionCadence}). That share is also about how many times a
 * collection copies an entry kept as an object, where encoded each entry costs an encoding and a decoding per read:
 * a state is encoded only while its entries are more likely to be copied than read (entries read about once each
 * and living a quarter of the time between collections stay objects), and decoded again once reads come at twice that rate. Only
 * {@linkplain ImmutableClasses immutable} values are encoded: the first mutable one (there, or written later)
 * sends the state back to objects for good, so that changing a value in place keeps working as it does with
 * objects. Task thread only.
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
    /**
     * Encoded only when an entry's estimated lifetime is at least this share of the time between young collections
     * (that share of the entries, roughly, is still there when one comes) ...
     */
    static final double OUTLIVES_SHARE = 0.25;
    /** ... and decoded again when it falls below this share. */
    static final double DIES_YOUNG_SHARE = 0.125;
    /**
     * Decoded again when reads and replacements per new entry exceed this many times the entry's lifetime share (the
     * copies collections would make of it): encoded only while an entry is more likely to be copied than read.
     */
    static final double READS_OVER_COPIES = 2.0;
    /** What the lifetime's sums keep of their past at each decision. */
    static final double LIFETIME_DECAY = 0.5;

    private final long minEntries;
    private final long maxPeriod;
    /** Makes the codec of a state, by its name. */
    private final Function<String, ArenaCodec> codecs;
    private final LongSupplier nanoClock;
    /** The mean time between young collections, ns (0: every state counts as long-lived). */
    private final LongSupplier collectionInterval;
    private long decidedNanos;
    /** Whether an entry came in, and when the first did (restored entries do not count: the age is then underestimated). */
    private boolean hadEntries;
    private long entriesSinceNanos;
    /** The state's entries at the last decision. */
    private long decidedSize;
    /** Entries held times ns, and entries gone, over the last few decisions (decayed by {@link #LIFETIME_DECAY}). */
    private double heldNanos;
    private double gone;
    private long period;
    private long inserts;
    private long accesses;
    /** Set once a value was met that cannot be kept encoded (mutable, or refused by the codec): objects for good. */
    private boolean off;
    private ArenaCodec codec;
    private int changes;
    private boolean encoded;

    AutoValues() {
        this(FIRST_PERIOD, MAX_PERIOD, MIN_ENTRIES, ArenaCodec::new, System::nanoTime, CollectionCadence::meanIntervalNanos);
    }

    /**
     * For tests: decisions every {@code period} inserts and accesses (doubling up to {@code maxPeriod}), from
     * {@code minEntries}, encoding with the codec {@code codecs} makes for a state's name; every state counts as
     * long-lived.
     */
    AutoValues(long period, long maxPeriod, long minEntries, Function<String, ArenaCodec> codecs) {
        this(period, maxPeriod, minEntries, codecs, System::nanoTime, () -> 0);
    }

    /** For tests: as above, with the time ({@code nanoClock}) and the time between young collections given. */
    AutoValues(long period, long maxPeriod, long minEntries, Function<String, ArenaCodec> codecs, LongSupplier nanoClock,
            LongSupplier collectionInterval) {
        this.period = period;
        this.maxPeriod = maxPeriod;
        this.minEntries = minEntries;
        this.codecs = codecs;
        this.nanoClock = nanoClock;
        this.collectionInterval = collectionInterval;
        this.decidedNanos = nanoClock.getAsLong();
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
        if (!hadEntries) {
            hadEntries = true;
            entriesSinceNanos = nanoClock.getAsLong();
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
        long now = nanoClock.getAsLong();
        long size = table.size();
        // entries gone since the last decision (removed, or expired and swept); restored entries come in uncounted
        long removed = Math.max(0, decidedSize + in - size);
        heldNanos = heldNanos * LIFETIME_DECAY + (decidedSize + size) / 2.0 * (now - decidedNanos);
        gone = gone * LIFETIME_DECAY + removed;
        double lifetime = Math.min(gone > 0 ? heldNanos / gone : Double.POSITIVE_INFINITY,
                hadEntries ? now - entriesSinceNanos : 0);
        decidedNanos = now;
        decidedSize = size;
        long interval = collectionInterval.getAsLong();
        // the estimated lifetime as a share of the time between young collections
        double lifeShare = interval <= 0 ? Double.POSITIVE_INFINITY : lifetime / interval;
        if (!table.serialized()) {
            // encoded, an entry costs an encoding and a decoding per read; as an object, about one copy per young
            // collection it meets (lifeShare of them): encoding pays only where copies would outnumber reads
            if (touched >= in * ENCODE_BELOW || size < minEntries || lifeShare < OUTLIVES_SHARE || lifeShare * in < touched) {
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
            changed(table, "encoded", size, in, touched, lifetime, interval);
        } else if (touched > in * DECODE_ABOVE || lifeShare < DIES_YOUNG_SHARE || lifeShare * in * READS_OVER_COPIES < touched) {
            table.decodeAll();
            changed(table, "as objects", size, in, touched, lifetime, interval);
        }
    }

    /** The state now keeps its values {@code how} ("encoded" or "as objects"). */
    private void changed(StateTable table, String how, long size, long in, long touched, double lifetime, long interval) {
        changes++;
        encoded = table.serialized();
        period = Math.min(maxPeriod, period * 2);
        if (LOG.isInfoEnabled()) {
            LOG.info("{}: state '{}' ({} entries; {} reads or replacements for {} new entries; an entry lives about {} ms, "
                    + "young collections come every {} ms) keeps its values {} now", table.backend.operatorLabel(), table.name,
                    size, touched, in, Math.round(lifetime / 1e6), interval <= 0 ? "-" : Math.round(interval / 1e6), how);
        }
    }
}
