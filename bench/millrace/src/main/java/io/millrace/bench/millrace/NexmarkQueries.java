package io.millrace.bench.millrace;

import io.millrace.api.DataStream;
import io.millrace.api.KeyedStream;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.PackedAccumulator;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.bench.workload.Auction;
import io.millrace.bench.workload.AuctionTerms;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Event;
import io.millrace.bench.workload.Nexmark;
import io.millrace.bench.workload.Person;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Rows;
import java.time.Duration;

/** Nexmark q0-q8 (and keyed counts over its bids) on Millrace's DataStream API, written as a user would. */
final class NexmarkQueries {
    /** TJOIN's versioned table: an auction's terms, primary key {@code auction}; valid from the record's timestamp. */
    static final RowType TERMS = RowType.builder()
            .field("auction", FieldType.BIGINT)
            .field("reserve", FieldType.BIGINT)
            .field("category", FieldType.BIGINT)
            .build();

    private NexmarkQueries() {}

    /**
     * {@code best}: how q5 and q7 take the best of each window ({@code BenchOptions.bestOfWindow}): "all" (q7: one
     * window over all bids), "process" or "reduce" (after a window per auction, a keyed process function or a window
     * reduce keyed by window end). {@code eventRate}: how fast event time advances (IJOIN's interval).
     */
    static DataStream<?> build(Query q, DataStream<Event> events, String best, long eventRate) {
        return switch (q) {
            case Q0 -> bids(events);
            case Q1 -> bids(events).map(b -> new Bid(b.auction(), b.bidder(), b.price() * 908 / 1000, b.channel(), b.url(), b.dateTime()));
            case Q2 -> bids(events).filter(b -> b.auction() % Query.Q2_MODULUS == 0).map(b -> new Rows.AuctionPrice(b.auction(), b.price()));
            case Q3 -> persons(events).filter(p -> Query.Q3_STATES.contains(p.state()))
                    .connect(auctions(events).filter(a -> a.category() == Query.Q3_CATEGORY))
                    .keyBy(Person::id, Auction::seller)
                    .process(new NexmarkFunctions.SellerJoin()).name("q3-join").uid("q3-join");
            case Q4 -> auctions(events).connect(bids(events))
                    .keyBy(Auction::id, Bid::auction)
                    .process(new NexmarkFunctions.AuctionCloser()).name("q4-close").uid("q4-close")
                    .keyBy(Rows.ClosedAuction::category)
                    .process(new NexmarkFunctions.CategoryMean()).name("q4-average").uid("q4-average");
            case Q5 -> hottest(bids(events).keyBy(Bid::auction)
                    .window(Windows.sliding(Duration.ofMillis(Query.Q5_SIZE), Duration.ofMillis(Query.Q5_SLIDE)))
                    .aggregate(new CountBids(), new AuctionCountOf()).name("q5-count").uid("q5-count")
                    .keyBy(Rows.AuctionCount::windowEnd), best.equals("reduce"));
            case Q7 -> best.equals("all")
                    ? bids(events).windowAll(Windows.tumbling(Duration.ofMillis(Query.Q7_SIZE)))
                            .reduce((a, b) -> Rows.beats(b, a) ? b : a).name("q7-highest").uid("q7-highest")
                    : highest(bids(events).keyBy(Bid::auction)
                            .window(Windows.tumbling(Duration.ofMillis(Query.Q7_SIZE)))
                            .reduce((a, b) -> Rows.beats(b, a) ? b : a, new WindowBidOf()).name("q7-max").uid("q7-max")
                            .keyBy(Rows.WindowBid::windowEnd), best.equals("reduce"));
            case Q8 -> persons(events).connect(auctions(events))
                    .keyBy(Person::id, Auction::seller)
                    .process(new NexmarkFunctions.NewUsers()).name("q8-join").uid("q8-join");
            case COUNTS -> bids(events).keyBy(Bid::auction)
                    .process(new NexmarkFunctions.BidCount()).name("counts").uid("counts");
            // a bid comes at most the longest auction's length after its auction: the interval bounds the state,
            // the function keeps the bids before the auction's own expiry
            case IJOIN -> auctions(events).keyBy(Auction::id)
                    .intervalJoin(bids(events).keyBy(Bid::auction))
                    .between(Duration.ZERO, Duration.ofMillis(Nexmark.maxAuctionLength(eventRate)))
                    .process(new NexmarkFunctions.OpenAuctionBids()).name("ijoin").uid("ijoin");
            case TJOIN -> TemporalJoin.of(bids(events).keyBy(Bid::auction), terms(auctions(events)).keyBy(r -> r.getLong(0)))
                    .inner((b, t) -> new Rows.BidTerms(b.auction(), b.bidder(), b.price(), t.getLong(1), t.getLong(2), b.dateTime()))
                    .uid("tjoin")
                    .filter(r -> r.price() >= r.reserve()).name("tjoin-reserve");
            default -> throw new IllegalArgumentException(q.id() + " is not a Nexmark query");
        };
    }

    /**
     * q5's second step: the hottest auction of each window, once the window is complete. As a keyed process function
     * with an event-time timer at the window's end, or as a tumbling window of the slide (it holds exactly the
     * first step's results for that window end, stamped end - 1) reducing them.
     */
    private static DataStream<?> hottest(KeyedStream<Long, Rows.AuctionCount> byWindow, boolean reduce) {
        if (!reduce) {
            return byWindow.process(new NexmarkFunctions.Hottest()).name("q5-hottest").uid("q5-hottest");
        }
        return byWindow.window(Windows.tumbling(Duration.ofMillis(Query.Q5_SLIDE)))
                .reduce((a, b) -> Rows.hotter(b.count(), b.auction(), a.count(), a.auction()) ? b : a)
                .name("q5-hottest").uid("q5-hottest");
    }

    /** q7's second step when it has one: the highest bid of each window, as {@link #hottest} does it for q5. */
    private static DataStream<?> highest(KeyedStream<Long, Rows.WindowBid> byWindow, boolean reduce) {
        if (!reduce) {
            return byWindow.process(new NexmarkFunctions.Highest()).name("q7-highest").uid("q7-highest");
        }
        return byWindow.window(Windows.tumbling(Duration.ofMillis(Query.Q7_SIZE)))
                .reduce((a, b) -> Rows.beats(b.bid(), a.bid()) ? b : a).name("q7-highest").uid("q7-highest")
                .map(Rows.WindowBid::bid).name("q7-bid").uid("q7-bid");
    }

    /**
     * TJOIN's changelog of auction terms ({@link AuctionTerms}): an insert when an auction opens, an update of an older
     * auction's row at the same moment; each change stamped with the auction's time.
     */
    static DataStream<Row> terms(DataStream<Auction> auctions) {
        return auctions.flatMap((Auction a, io.millrace.api.functions.Collector<Row> out) -> {
            AuctionTerms opening = AuctionTerms.opening(a);
            out.collect(Row.ofKind(RowKind.INSERT, TERMS, opening.auction(), opening.reserve(), opening.category()));
            AuctionTerms revision = AuctionTerms.revision(a);
            if (revision != null) {
                out.collect(Row.ofKind(RowKind.UPDATE_AFTER, TERMS, revision.auction(), revision.reserve(), revision.category()));
            }
        }).name("auction-terms");
    }

    static DataStream<Bid> bids(DataStream<Event> events) {
        return events.filter(e -> e instanceof Bid).map(e -> (Bid) e).name("bids");
    }

    static DataStream<Person> persons(DataStream<Event> events) {
        return events.filter(e -> e instanceof Person).map(e -> (Person) e).name("persons");
    }

    static DataStream<Auction> auctions(DataStream<Event> events) {
        return events.filter(e -> e instanceof Auction).map(e -> (Auction) e).name("auctions");
    }

    /** {@link Rows.Count}'s one field, packed into one long (see {@link PackedAccumulator}). */
    static final class Count implements PackedAccumulator, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        long n;

        @Override
        public int packedLongs() {
            return 1;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = n;
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            n = slots[offset];
        }
    }

    /** Bids per auction and window, counted in place. */
    static final class CountBids implements AggregateFunction<Bid, Count, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Count createAccumulator() {
            return new Count();
        }

        @Override
        public Count add(Bid value, Count acc) {
            acc.n++;
            return acc;
        }

        @Override
        public Long getResult(Count acc) {
            return acc.n;
        }

        @Override
        public Count merge(Count a, Count b) {
            a.n += b.n;
            return a;
        }
    }

    static final class AuctionCountOf extends ProcessWindowFunction<Long, Rows.AuctionCount, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long auction, Context<TimeWindow> ctx, Iterable<Long> counts, Collector<Rows.AuctionCount> out) {
            out.collect(new Rows.AuctionCount(auction, counts.iterator().next(), ctx.window().end()));
        }
    }

    static final class WindowBidOf extends ProcessWindowFunction<Bid, Rows.WindowBid, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long auction, Context<TimeWindow> ctx, Iterable<Bid> max, Collector<Rows.WindowBid> out) {
            out.collect(new Rows.WindowBid(ctx.window().end(), max.iterator().next()));
        }
    }
}
