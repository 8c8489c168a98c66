package io.millrace.sql.connector;

/**
 * The events of the Nexmark benchmark as a pure function of the event number {@code n} (0, 1, 2, ...), after the
 * benchmark's published data model, so a source restored from a checkpoint generates exactly the events it had not
 * emitted, and a test recomputes any event directly.
 *
 * <p><b>Kinds.</b> Of every {@code person + auction + bid} consecutive events (1 + 3 + 46 by default), the first
 * {@code person} are new people, the next {@code auction} new auctions, the rest bids. People and auctions have
 * dense ids from 1000; categories are 10 to 14.
 *
 * <p><b>Time.</b> Event {@code n} happens at {@code baseTime + n / rate} (in milliseconds, rounded down), where
 * {@code rate} is {@code first-event.rate} events per second.
 *
 * <p><b>Values</b> (each event draws from a random stream seeded by its number):
 * <ul>
 *   <li>a person has a name of one of 11 first and 9 last names, an e-mail address {@code xxxxxxx@xxxxx.com} of
 *   random letters, a credit card of four groups of four digits, one of 10 US cities and one of 6 states;</li>
 *   <li>an auction's seller is, with probability 3/4, the first person of the newest batch of 100 people (a hot
 *   seller), else one of the 1000 most recent people (up to 10 ids ahead); its initial bid and the step from it to
 *   its reserve are prices; it expires after 1 ms to twice the event time it takes to open 100 auctions; its name
 *   and description are random text of up to 20 and 100 characters;</li>
 *   <li>a bid is, with probability 1/2, for the first auction of the newest batch of 100 auctions (a hot auction),
 *   else for one of the 100 most recent auctions (up to 10 ids ahead); its bidder is, with probability 3/4, the
 *   second person of the newest batch of 100 people, else one of the 1000 most recent; with probability 1/2 its
 *   channel is one of Google, Facebook, Baidu and Apple, else {@code channel-k} for one of 10 000 channels, whose
 *   URL carries {@code channel_id=}{@code |Integer.reverse(k)|};</li>
 *   <li>prices are {@code round(10^(6u) * 100)} for a uniform {@code u}: 1 to 10^6 dollars in cents, log-uniform;</li>
 *   <li>{@code extra} pads each event to an average size (200 bytes for a person, 500 for an auction, 100 for a
 *   bid) with random letters, 80 % to 120 % of the gap.</li>
 * </ul>
 */
public final class NexmarkGenerator implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    public static final long FIRST_PERSON_ID = 1000;
    public static final long FIRST_AUCTION_ID = 1000;
    public static final long FIRST_CATEGORY_ID = 10;
    static final int CATEGORIES = 5;
    static final int ACTIVE_PEOPLE = 1000;
    static final int IN_FLIGHT_AUCTIONS = 100;
    static final int PERSON_ID_LEAD = 10;
    static final int AUCTION_ID_LEAD = 10;
    /** Hot people and auctions are chosen batch by batch of this many ids. */
    static final int HOT_BATCH = 100;
    static final int HOT_AUCTION_RATIO = 2;
    static final int HOT_SELLER_RATIO = 4;
    static final int HOT_BIDDER_RATIO = 4;
    static final int HOT_CHANNEL_RATIO = 2;
    static final int CHANNELS = 10_000;
    static final int PERSON_BYTES = 200;
    static final int AUCTION_BYTES = 500;
    static final int BID_BYTES = 100;

    private static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
    private static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    private static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent",
        "Cheyenne"};
    private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};

    /** A person; {@code dateTime} in milliseconds since the epoch. */
    public record Person(long id, String name, String emailAddress, String creditCard, String city, String state, long dateTime, String extra) {}

    /** An auction; times in milliseconds since the epoch. */
    public record Auction(long id, String itemName, String description, long initialBid, long reserve, long dateTime, long expires, long seller,
            long category, String extra) {}

    /** A bid; {@code dateTime} in milliseconds since the epoch. */
    public record Bid(long auction, long bidder, long price, String channel, String url, long dateTime, String extra) {}

    private final int personProportion;
    private final int auctionProportion;
    private final int totalProportion;
    private final long baseTime;
    private final double microsPerEvent;

    /**
     * A generator of events at {@code eventsPerSecond} of event time from {@code baseTime} (ms), in the given
     * proportions; {@code person} and {@code auction} at least 1, {@code bid} at least 0.
     */
    public NexmarkGenerator(long baseTime, double eventsPerSecond, int person, int auction, int bid) {
        if (person < 1 || auction < 1 || bid < 0) {
            throw new IllegalArgumentException("proportions must be at least 1 person, 1 auction and 0 bids, were " + person + "/" + auction + "/" + bid);
        }
        if (!(eventsPerSecond > 0) || Double.isInfinite(eventsPerSecond)) {
            throw new IllegalArgumentException("eventsPerSecond must be positive, was " + eventsPerSecond);
        }
        this.personProportion = person;
        this.auctionProportion = auction;
        this.totalProportion = person + auction + bid;
        this.baseTime = baseTime;
        this.microsPerEvent = 1_000_000.0 / eventsPerSecond;
    }

    /** The event type of event {@code n}: 0 a person, 1 an auction, 2 a bid (the {@code event_type} column). */
    public int eventType(long n) {
        long offset = n % totalProportion;
        return offset < personProportion ? 0 : offset < personProportion + auctionProportion ? 1 : 2;
    }

    /** The event time of event {@code n}, in milliseconds; non-decreasing in {@code n}. */
    public long timestamp(long n) {
        return baseTime + (long) (n * microsPerEvent) / 1000L;
    }

    /** Event {@code n}, which must be a person ({@link #eventType} 0). */
    public Person person(long n) {
        Random r = new Random(n);
        long id = lastPersonId(n) + FIRST_PERSON_ID;
        String name = FIRST_NAMES[r.nextInt(FIRST_NAMES.length)] + " " + LAST_NAMES[r.nextInt(LAST_NAMES.length)];
        String email = r.letters(7) + "@" + r.letters(5) + ".com";
        String card = String.format("%04d %04d %04d %04d", r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000));
        String city = CITIES[r.nextInt(CITIES.length)];
        String state = STATES[r.nextInt(STATES.length)];
        int size = 8 + name.length() + email.length() + card.length() + city.length() + state.length();
        return new Person(id, name, email, card, city, state, timestamp(n), r.extra(size, PERSON_BYTES));
    }

    /** Event {@code n}, which must be an auction ({@link #eventType} 1). */
    public Auction auction(long n) {
        Random r = new Random(n);
        long id = lastAuctionId(n) + FIRST_AUCTION_ID;
        long seller = r.nextInt(HOT_SELLER_RATIO) > 0 ? lastPersonId(n) / HOT_BATCH * HOT_BATCH : recentPerson(n, r);
        long category = FIRST_CATEGORY_ID + r.nextInt(CATEGORIES);
        long initialBid = r.price();
        long ts = timestamp(n);
        long expires = ts + auctionLength(n, r);
        String itemName = r.text(20);
        String description = r.text(100);
        long reserve = initialBid + r.price();
        int size = 8 + itemName.length() + description.length() + 8 + 8 + 8 + 8 + 8;
        return new Auction(id, itemName, description, initialBid, reserve, ts, expires, seller + FIRST_PERSON_ID, category, r.extra(size, AUCTION_BYTES));
    }

    /** Event {@code n}, which must be a bid ({@link #eventType} 2). */
    public Bid bid(long n) {
        Random r = new Random(n);
        long auction = r.nextInt(HOT_AUCTION_RATIO) > 0 ? lastAuctionId(n) / HOT_BATCH * HOT_BATCH : recentAuction(n, r);
        long bidder = r.nextInt(HOT_BIDDER_RATIO) > 0 ? lastPersonId(n) / HOT_BATCH * HOT_BATCH + 1 : recentPerson(n, r);
        long price = r.price();
        String channel;
        String url;
        if (r.nextInt(HOT_CHANNEL_RATIO) > 0) {
            int k = r.nextInt(HOT_CHANNELS.length);
            channel = HOT_CHANNELS[k];
            url = baseUrl(new Random(-1 - k));
        } else {
            int k = r.nextInt(CHANNELS);
            channel = "channel-" + k;
            url = baseUrl(new Random(-1 - HOT_CHANNELS.length - k)) + "&channel_id=" + Math.abs(Integer.reverse(k));
        }
        return new Bid(auction + FIRST_AUCTION_ID, bidder + FIRST_PERSON_ID, price, channel, url, timestamp(n), r.extra(8 + 8 + 8 + 8, BID_BYTES));
    }

    /** The base-0 id of the newest person at or before event {@code n}. */
    long lastPersonId(long n) {
        long epoch = n / totalProportion;
        long offset = n % totalProportion;
        return epoch * personProportion + Math.min(offset, personProportion - 1);
    }

    /** The base-0 id of the newest auction at or before event {@code n} (-1 before the first). */
    long lastAuctionId(long n) {
        long epoch = n / totalProportion;
        long offset = n % totalProportion;
        if (offset < personProportion) {
            epoch--;
            offset = auctionProportion - 1;
        } else if (offset >= personProportion + auctionProportion) {
            offset = auctionProportion - 1;
        } else {
            offset -= personProportion;
        }
        return epoch * auctionProportion + offset;
    }

    /** One of the {@link #ACTIVE_PEOPLE} most recent people, up to {@link #PERSON_ID_LEAD} ids ahead of the newest. */
    private long recentPerson(long n, Random r) {
        long people = lastPersonId(n) + 1;
        long active = Math.min(people, ACTIVE_PEOPLE);
        return people - active + r.nextLong(active + PERSON_ID_LEAD);
    }

    /** One of the {@link #IN_FLIGHT_AUCTIONS} most recent auctions, up to {@link #AUCTION_ID_LEAD} ids ahead of the newest. */
    private long recentAuction(long n, Random r) {
        long last = lastAuctionId(n);
        long min = Math.max(last - IN_FLIGHT_AUCTIONS, 0);
        return min + r.nextLong(last - min + 1 + AUCTION_ID_LEAD);
    }

    /** 1 ms to twice the event time it takes to open {@link #IN_FLIGHT_AUCTIONS} auctions from event {@code n}. */
    private long auctionLength(long n, Random r) {
        long events = (long) IN_FLIGHT_AUCTIONS * totalProportion / auctionProportion;
        long horizon = timestamp(n + events) - timestamp(n);
        return 1 + r.nextLong(Math.max(horizon * 2, 1));
    }

    private static String baseUrl(Random r) {
        return "https://www.nexmark.com/" + r.letters(5) + "/" + r.letters(5) + "/" + r.letters(5) + "/item.htm?query=1";
    }

    /** A small, allocation-light random stream (SplitMix64), seeded by the event number: the same values in every JVM. */
    static final class Random {
        private long state;

        /** The seed is scrambled, so that the streams of neighbouring seeds are not shifted copies of each other. */
        Random(long seed) {
            this.state = mix(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        }

        long nextLong() {
            return mix(state += 0x9E3779B97F4A7C15L);
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /** Uniform in {@code [0, bound)}; {@code bound} positive. */
        long nextLong(long bound) {
            return Long.remainderUnsigned(nextLong(), bound);
        }

        int nextInt(int bound) {
            return (int) nextLong(bound);
        }

        double nextDouble() {
            return (nextLong() >>> 11) * 0x1.0p-53;
        }

        /** A price in cents, log-uniform from 1 to 10^6 dollars. */
        long price() {
            return Math.round(Math.pow(10.0, nextDouble() * 6.0) * 100.0);
        }

        /** {@code n} random lower-case letters. */
        String letters(int n) {
            char[] c = new char[n];
            for (int i = 0; i < n; i++) {
                c[i] = (char) ('a' + nextInt(26));
            }
            return new String(c);
        }

        /** Text of 3 to {@code maxLength - 1} characters: letters and, now and then, a space; trimmed. */
        String text(int maxLength) {
            int n = 3 + nextInt(maxLength - 3);
            char[] c = new char[n];
            for (int i = 0; i < n; i++) {
                c[i] = nextInt(13) == 0 ? ' ' : (char) ('a' + nextInt(26));
            }
            return new String(c).trim();
        }

        /** Letters that pad an event of {@code size} bytes to about {@code average}: 80 % to 120 % of the gap, or nothing. */
        String extra(int size, int average) {
            if (size > average) {
                return "";
            }
            int gap = average - size;
            int delta = (int) Math.round(gap * 0.2);
            int length = gap - delta + (delta == 0 ? 0 : nextInt(2 * delta));
            return letters(length);
        }
    }
}
