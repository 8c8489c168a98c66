package io.millrace.bench.workload;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The benchmark's queries, engine-neutral: which input each reads, how far its watermark trails the newest event,
 * and how its results' timestamps relate to the event that produces them (for latency).
 */
public enum Query {
    Q0("pass-through of bids", null, 0),
    Q1("bid prices in euros", null, 0),
    Q2("bids of every 123rd auction", null, 0),
    Q3("incremental join: sellers in OR, ID, CA and their auctions in category 10", null, 0),
    Q4("average closing price per category (auction-bid join, close at expiry)", null, 1),
    Q5("hot items: the auction with most bids, 10 s windows every 2 s", null, 1),
    Q7("highest bid per 10 s tumbling window", null, 1),
    Q8("new users: people who open an auction in the 10 s window they registered in", null, 0),
    COUNTS("keyed counts: bids per auction in value state; a result at every 10th bid of an auction", null, 0),
    IJOIN("interval join: each bid with the auction it bids on, from the auction's opening to its expiry", null, 0),
    TJOIN("temporal join: each bid with its auction's terms valid at the bid's time; bids at or above the reserve", null, 1),
    SLIDING("per-sensor 60 s sliding average every 5 s, 10,000 sensors, readings up to 2 s late", Telemetry.Shape.SENSORS, 1),
    SESSION("run cycles: session windows (gap 10 s) per machine", Telemetry.Shape.MACHINES, 1),
    TTL("keyed counts with a 5 s TTL over short-lived keys; a result when a key reaches 10 events", Telemetry.Shape.SHORT_LIVED_KEYS, 0);

    /** Window sizes and gaps of the queries, ms. */
    public static final long Q5_SIZE = 10_000;
    public static final long Q5_SLIDE = 2_000;
    public static final long Q7_SIZE = 10_000;
    public static final long Q8_SIZE = 10_000;
    public static final long SLIDING_SIZE = 60_000;
    public static final long SLIDING_SLIDE = 5_000;
    public static final long SESSION_GAP = 10_000;
    public static final long TTL_MS = 5_000;
    public static final long TTL_THRESHOLD = 10;
    /** COUNTS reports an auction's count each time it reaches a multiple of this. */
    public static final long COUNTS_EVERY = 10;
    /** Q2 keeps bids on auctions whose id is a multiple of this. */
    public static final long Q2_MODULUS = 123;
    /** Q3 keeps people of these states, auctions of this category. */
    public static final List<String> Q3_STATES = List.of("OR", "ID", "CA");
    public static final long Q3_CATEGORY = 10;
    /**
     * TJOIN: when auction {@code n} opens, auction {@code n - TJOIN_REVISION_LAG} revises its terms
     * ({@link AuctionTerms#revision}). Bids go to the 100 newest auctions or the hot one, so a share of them meets a
     * revised version. The opening and the revision of an auction are this many auctions apart in event time,
     * about 830 events: at most --event-rate 800,000 they never fall into the same millisecond.
     */
    public static final long TJOIN_REVISION_LAG = 50;

    public final String description;
    /** Telemetry shape, or null for a Nexmark query. */
    public final Telemetry.Shape telemetry;
    private final long closingOffsetMs;

    Query(String description, Telemetry.Shape telemetry, long closingOffsetMs) {
        this.description = description;
        this.telemetry = telemetry;
        this.closingOffsetMs = closingOffsetMs;
    }

    /** Name on the command line and in result lines: q0 ... q8, counts, ijoin, tjoin, sliding, session, ttl. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean isNexmark() {
        return telemetry == null;
    }

    /** How far the watermark trails the newest event time seen (bounded out-of-orderness), ms. */
    public long watermarkDelayMs() {
        return telemetry == null ? 0 : telemetry.maxDelayMs;
    }

    /**
     * The event time of the earliest event whose arrival can produce a result stamped {@code resultTime}: the
     * event itself for per-record queries; for event-time results (window end - 1, timers), the first event far
     * enough ahead to move the watermark past it. Latency is measured from that event's creation.
     */
    public long triggeringEventTime(long resultTime) {
        return resultTime + (closingOffsetMs == 0 ? 0 : closingOffsetMs + watermarkDelayMs());
    }

    public static Query of(String id) {
        for (Query q : values()) {
            if (q.id().equals(id)) {
                return q;
            }
        }
        throw new IllegalArgumentException("unknown query '" + id + "'; known: "
                + Arrays.stream(values()).map(Query::id).collect(Collectors.joining(", ")));
    }
}
