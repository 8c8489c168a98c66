package io.millrace.bench.workload;

/**
 * The Nexmark event model as a pure function of the event index: event {@code i} is the same object value for a
 * given seed whichever thread, engine or run computes it, so sources are replayable and parallel without
 * coordination.
 *
 * <p>Model (after the Nexmark benchmark): of every 50 consecutive events, 1 is a new person, 3 are new auctions
 * and 46 are bids. Ids are dense from 1000. A bid goes to a hot auction with probability 1/2, otherwise to one of
 * the 100 most recent ("in flight") auctions; its bidder is a hot person with probability 3/4, otherwise one of the
 * 1000 most recent ("active") people; a seller likewise. An auction runs for a random time of up to twice the time
 * it takes to open 100 auctions. Prices follow a log-uniform law from 1 to 10^6 dollars. Event time advances
 * by {@code 1 / eventsPerSecond} per event from {@code baseTime}.
 *
 * <p>Allocation: one record per event; every string comes from a fixed pool. The benchmark's {@code extra} padding
 * field is left out.
 */
public final class Nexmark implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public static final int PROPORTION = 50;
    public static final int PERSON_SHARE = 1;
    public static final int AUCTION_SHARE = 3;
    public static final long FIRST_PERSON_ID = 1000;
    public static final long FIRST_AUCTION_ID = 1000;
    public static final long FIRST_CATEGORY_ID = 10;
    public static final int CATEGORIES = 5;
    static final int ACTIVE_PEOPLE = 1000;
    static final int IN_FLIGHT_AUCTIONS = 100;
    static final int HOT_AUCTION_RATIO = 2;
    static final int HOT_SELLER_RATIO = 4;
    static final int HOT_BIDDER_RATIO = 4;

    private static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
    private static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    private static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"};
    private static final String[] CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    private static final String[] NAMES = pool(64, k -> FIRST_NAMES[k % FIRST_NAMES.length] + " " + LAST_NAMES[k % LAST_NAMES.length]);
    private static final String[] EMAILS = pool(64, k -> "user" + k + "@example.com");
    private static final String[] CARDS = pool(64, k -> String.format("%04d %04d %04d %04d", k, k * 7 % 10_000, k * 13 % 10_000, k * 31 % 10_000));
    private static final String[] ITEMS = pool(64, k -> "item-" + Integer.toString(k * 7919, 36));
    private static final String[] DESCRIPTIONS = pool(64, k -> "description of item " + k);
    private static final String[] URLS = pool(64, k -> "https://www.nexmark.com/item.htm?query=" + k + "&channel_id=" + k % 4);
    private static final long[] PRICES = prices(1024);

    private final long seed;
    private final long baseTime;
    private final Divisor perMillisecond;

    /** {@code eventsPerSecond}: how fast event time advances, in events per event-time second. */
    public Nexmark(long seed, long baseTime, long eventsPerSecond) {
        if (eventsPerSecond < 1 || eventsPerSecond > 1_000_000_000L) {
            throw new IllegalArgumentException("eventsPerSecond must be between 1 and 10^9, was " + eventsPerSecond);
        }
        this.seed = seed;
        this.baseTime = baseTime;
        this.perMillisecond = new Divisor(eventsPerSecond);
    }

    public long baseTime() {
        return baseTime;
    }

    /** Event time of event {@code i} (ms); non-decreasing in {@code i}. */
    public long timestamp(long i) {
        return baseTime + perMillisecond.divide(i * 1000);
    }

    public static boolean isPerson(long i) {
        return i % PROPORTION < PERSON_SHARE;
    }

    public static boolean isAuction(long i) {
        long offset = i % PROPORTION;
        return offset >= PERSON_SHARE && offset < PERSON_SHARE + AUCTION_SHARE;
    }

    public Event event(long i) {
        return event(i, timestamp(i));
    }

    /** Event {@code i}, whose {@link #timestamp} the caller has computed already. */
    Event event(long i, long timestamp) {
        long epoch = i / PROPORTION;
        long offset = i - epoch * PROPORTION;
        if (offset < PERSON_SHARE) {
            return person(i, epoch, timestamp);
        }
        if (offset < PERSON_SHARE + AUCTION_SHARE) {
            return auction(i, epoch, offset, timestamp);
        }
        return bid(i, epoch, timestamp);
    }

    /** {@code epoch}: {@code i / PROPORTION}, the base-0 id of the newest person at or before event {@code i}. */
    private Person person(long i, long epoch, long ts) {
        long r = Hash64.of(seed, i, 0);
        int a = (int) (r & 63);
        int b = (int) ((r >>> 6) & 63);
        int c = (int) Hash64.below(r >>> 12, CITIES.length);
        int s = (int) Hash64.below(r >>> 20, STATES.length);
        return new Person(FIRST_PERSON_ID + epoch, NAMES[a], EMAILS[b], CARDS[(a + b) & 63], CITIES[c], STATES[s], ts);
    }

    /** An auction's {@code offset} in its epoch is between 1 and 3; its base-0 id is {@code epoch * 3 + offset - 1}. */
    private Auction auction(long i, long epoch, long offset, long ts) {
        long r = Hash64.of(seed, i, 1);
        long initial = PRICES[(int) (r & 1023)];
        long reserve = initial + PRICES[(int) ((r >>> 10) & 1023)];
        long seller = Hash64.below(r >>> 20, HOT_SELLER_RATIO) > 0
                ? epoch / HOT_SELLER_RATIO * HOT_SELLER_RATIO
                : recent(epoch, ACTIVE_PEOPLE, Hash64.of(seed, i, 2));
        long category = FIRST_CATEGORY_ID + Hash64.below(r >>> 30, CATEGORIES);
        return new Auction(FIRST_AUCTION_ID + epoch * AUCTION_SHARE + offset - PERSON_SHARE, ITEMS[(int) (r >>> 40) & 63],
                DESCRIPTIONS[(int) (r >>> 46) & 63], initial, reserve, ts, ts + auctionLength(i, Hash64.of(seed, i, 3)),
                FIRST_PERSON_ID + seller, category);
    }

    /** A bid comes after its epoch's auctions: the newest auction is its epoch's last. */
    private Bid bid(long i, long epoch, long ts) {
        long lastAuction = epoch * AUCTION_SHARE + AUCTION_SHARE - 1;
        long r = Hash64.of(seed, i, 4);
        long auction = Hash64.below(r, HOT_AUCTION_RATIO) > 0
                ? lastAuction / HOT_AUCTION_RATIO * HOT_AUCTION_RATIO
                : recent(lastAuction, IN_FLIGHT_AUCTIONS, r >>> 20);
        long r2 = Hash64.of(seed, i, 5);
        long bidder = Hash64.below(r2, HOT_BIDDER_RATIO) > 0
                ? epoch / HOT_BIDDER_RATIO * HOT_BIDDER_RATIO + 1
                : recent(epoch, ACTIVE_PEOPLE, r2 >>> 8);
        return new Bid(FIRST_AUCTION_ID + auction, FIRST_PERSON_ID + bidder, PRICES[(int) ((r2 >>> 40) & 1023)],
                CHANNELS[(int) (r2 >>> 50) & 3], URLS[(int) (r2 >>> 52) & 63], ts);
    }

    /**
     * One of the {@code window} ids up to {@code last}. Callers pass a constant window, so once the first
     * {@code window} ids exist the remainder is by a constant, which the compiler turns into a multiplication.
     */
    private static long recent(long last, int window, long random) {
        if (last + 1 >= window) {
            return last - Hash64.below(random, window);
        }
        return last - Hash64.below(random, last + 1);
    }

    /** An upper bound of any auction's length ({@code expires - dateTime}) when event time advances at {@code eventsPerSecond}, ms. */
    public static long maxAuctionLength(long eventsPerSecond) {
        long events = (long) IN_FLIGHT_AUCTIONS * PROPORTION / AUCTION_SHARE;
        return 2 * ((events * 1000 + eventsPerSecond - 1) / eventsPerSecond);
    }

    /** Up to twice the event time it takes to open {@link #IN_FLIGHT_AUCTIONS} auctions, at least 1 ms. */
    private long auctionLength(long i, long random) {
        long events = (long) IN_FLIGHT_AUCTIONS * PROPORTION / AUCTION_SHARE;
        long horizon = timestamp(i + events) - timestamp(i);
        return 1 + Hash64.below(random, Math.max(2 * horizon, 1));
    }

    private static long[] prices(int n) {
        long[] p = new long[n];
        for (int k = 0; k < n; k++) {
            p[k] = Math.round(Math.pow(10.0, (k + 0.5) / n * 6.0) * 100.0);
        }
        return p;
    }

    private static String[] pool(int n, java.util.function.IntFunction<String> f) {
        String[] s = new String[n];
        for (int k = 0; k < n; k++) {
            s[k] = f.apply(k);
        }
        return s;
    }
}
