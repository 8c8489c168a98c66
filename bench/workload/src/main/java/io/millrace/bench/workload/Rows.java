package io.millrace.bench.workload;

/** Result rows and accumulators of the queries, shared by both engines' implementations. */
public final class Rows {
    private Rows() {}

    /** Q2. */
    public record AuctionPrice(long auction, long price) {}

    /** Q3. */
    public record SellerAuction(String name, String city, String state, long auction) {}

    /** Q4: the winning price of a closed auction, then the running average of its category. */
    public record ClosedAuction(long category, long price) {}

    public record CategoryAverage(long category, double average, long auctions) {}

    /** Q5 (bids of one auction in one window) and its result (the hottest auction of a window). */
    public record AuctionCount(long auction, long count, long windowEnd) {}

    /** Q7: the highest bid of one key in a window, then of the whole window. */
    public record WindowBid(long windowEnd, Bid bid) {}

    /** Q8. */
    public record NewUser(long person, String name, long auction, long windowStart) {}

    /** IJOIN: a bid placed while its auction was open. */
    public record AuctionBid(long auction, long bidder, long price, long dateTime) {}

    /** TJOIN: a bid with the terms of its auction valid at the bid's time. */
    public record BidTerms(long auction, long bidder, long price, long reserve, long category, long dateTime) {}

    /** Sliding telemetry. */
    public record SensorAverage(long sensor, long windowEnd, double average) {}

    /** Session telemetry. */
    public record RunCycle(long machine, long start, long end, long events) {}

    /** TTL telemetry, and COUNTS (key = auction). */
    public record KeyReached(long key, long count) {}

    /** A mutable count (window accumulator): updated in place, read by {@code getResult}. */
    public static final class Count implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public long n;

        public Count() {}

        public Count(long n) {
            this.n = n;
        }
    }

    /** A mutable sum and count (window accumulator). */
    public static final class Mean implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public double sum;
        public long n;

        public Mean() {}

        public Mean(double sum, long n) {
            this.sum = sum;
            this.n = n;
        }
    }

    /** Q7's order: higher price first, then earlier, then lower auction and bidder id; true if {@code a} wins. */
    public static boolean beats(Bid a, Bid b) {
        if (a.price() != b.price()) {
            return a.price() > b.price();
        }
        if (a.dateTime() != b.dateTime()) {
            return a.dateTime() < b.dateTime();
        }
        if (a.auction() != b.auction()) {
            return a.auction() < b.auction();
        }
        return a.bidder() < b.bidder();
    }

    /** Q5's order: more bids first, then the lower auction id; true if {@code a} wins. */
    public static boolean hotter(long countA, long auctionA, long countB, long auctionB) {
        return countA != countB ? countA > countB : auctionA < auctionB;
    }
}
