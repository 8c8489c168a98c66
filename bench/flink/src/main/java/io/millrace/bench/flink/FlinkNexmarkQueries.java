package io.millrace.bench.flink;

import io.millrace.bench.workload.Auction;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Event;
import io.millrace.bench.workload.Nexmark;
import io.millrace.bench.workload.Person;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Rows;
import java.time.Duration;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Nexmark q0-q8 (and keyed counts over its bids) on Flink's DataStream API: the same plans and functions as the Millrace versions. */
final class FlinkNexmarkQueries {
    private FlinkNexmarkQueries() {}

    /**
     * {@code best}: how q5 and q7 take the best of each window ({@code BenchOptions.bestOfWindow}): "all" (q7: one
     * window over all bids, which Flink evaluates in one subtask without pre-aggregation), "process" or "reduce"
     * (after a window per auction, a keyed process function or a window reduce keyed by window end). {@code eventRate}:
     * how fast event time advances (IJOIN's interval). TJOIN has no DataStream version: Flink's temporal join is in
     * SQL only (engine flink-sql).
     */
    static DataStream<?> build(Query q, DataStream<Event> events, String best, long eventRate) {
        return switch (q) {
            case Q0 -> bids(events);
            case Q1 -> bids(events).map(b -> new Bid(b.auction(), b.bidder(), b.price() * 908 / 1000, b.channel(), b.url(), b.dateTime()))
                    .returns(Bid.class);
            case Q2 -> bids(events).filter(b -> b.auction() % Query.Q2_MODULUS == 0)
                    .map(b -> new Rows.AuctionPrice(b.auction(), b.price())).returns(Rows.AuctionPrice.class);
            case Q3 -> persons(events).filter(p -> Query.Q3_STATES.contains(p.state()))
                    .connect(auctions(events).filter(a -> a.category() == Query.Q3_CATEGORY))
                    .keyBy(Person::id, Auction::seller, Types.LONG)
                    .process(new FlinkNexmarkFunctions.SellerJoin()).name("q3-join").uid("q3-join");
            case Q4 -> auctions(events).connect(bids(events))
                    .keyBy(Auction::id, Bid::auction, Types.LONG)
                    .process(new FlinkNexmarkFunctions.AuctionCloser()).name("q4-close").uid("q4-close")
                    .keyBy(Rows.ClosedAuction::category, Types.LONG)
                    .process(new FlinkNexmarkFunctions.CategoryMean()).name("q4-average").uid("q4-average");
            case Q5 -> hottest(bids(events).keyBy(Bid::auction, Types.LONG)
                    .window(SlidingEventTimeWindows.of(Duration.ofMillis(Query.Q5_SIZE), Duration.ofMillis(Query.Q5_SLIDE)))
                    .aggregate(new CountBids(), new AuctionCountOf()).name("q5-count").uid("q5-count")
                    .keyBy(Rows.AuctionCount::windowEnd, Types.LONG), best.equals("reduce"));
            case Q7 -> best.equals("all")
                    ? bids(events).windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(Query.Q7_SIZE)))
                            .reduce((a, b) -> Rows.beats(b, a) ? b : a).name("q7-highest").uid("q7-highest")
                    : highest(bids(events).keyBy(Bid::auction, Types.LONG)
                            .window(TumblingEventTimeWindows.of(Duration.ofMillis(Query.Q7_SIZE)))
                            .reduce((a, b) -> Rows.beats(b, a) ? b : a, new WindowBidOf()).name("q7-max").uid("q7-max")
                            .keyBy(Rows.WindowBid::windowEnd, Types.LONG), best.equals("reduce"));
            case Q8 -> persons(events).connect(auctions(events))
                    .keyBy(Person::id, Auction::seller, Types.LONG)
                    .process(new FlinkNexmarkFunctions.NewUsers()).name("q8-join").uid("q8-join");
            case COUNTS -> bids(events).keyBy(Bid::auction, Types.LONG)
                    .process(new FlinkNexmarkFunctions.BidCount()).name("counts").uid("counts");
            case IJOIN -> auctions(events).keyBy(Auction::id, Types.LONG)
                    .intervalJoin(bids(events).keyBy(Bid::auction, Types.LONG))
                    .between(Duration.ZERO, Duration.ofMillis(Nexmark.maxAuctionLength(eventRate)))
                    .process(new FlinkNexmarkFunctions.OpenAuctionBids()).name("ijoin").uid("ijoin");
            case TJOIN -> throw new IllegalArgumentException("tjoin: Flink's DataStream API has no event-time temporal join;"
                    + " Flink's is in SQL (--engines flink-sql)");
            default -> throw new IllegalArgumentException(q.id() + " is not a Nexmark query");
        };
    }

    /** q5's second step, as the Millrace version's {@code hottest}: a keyed process function or a window reduce. */
    private static DataStream<?> hottest(KeyedStream<Rows.AuctionCount, Long> byWindow, boolean reduce) {
        if (!reduce) {
            return byWindow.process(new FlinkNexmarkFunctions.Hottest()).name("q5-hottest").uid("q5-hottest");
        }
        return byWindow.window(TumblingEventTimeWindows.of(Duration.ofMillis(Query.Q5_SLIDE)))
                .reduce((a, b) -> Rows.hotter(b.count(), b.auction(), a.count(), a.auction()) ? b : a)
                .name("q5-hottest").uid("q5-hottest");
    }

    /** q7's second step, as the Millrace version's {@code highest}. */
    private static DataStream<?> highest(KeyedStream<Rows.WindowBid, Long> byWindow, boolean reduce) {
        if (!reduce) {
            return byWindow.process(new FlinkNexmarkFunctions.Highest()).name("q7-highest").uid("q7-highest");
        }
        return byWindow.window(TumblingEventTimeWindows.of(Duration.ofMillis(Query.Q7_SIZE)))
                .reduce((a, b) -> Rows.beats(b.bid(), a.bid()) ? b : a).name("q7-highest").uid("q7-highest")
                .map(Rows.WindowBid::bid).returns(Bid.class).name("q7-bid").uid("q7-bid");
    }

    static DataStream<Bid> bids(DataStream<Event> events) {
        return events.filter(e -> e instanceof Bid).map(e -> (Bid) e).returns(Bid.class).name("bids");
    }

    static DataStream<Person> persons(DataStream<Event> events) {
        return events.filter(e -> e instanceof Person).map(e -> (Person) e).returns(Person.class).name("persons");
    }

    static DataStream<Auction> auctions(DataStream<Event> events) {
        return events.filter(e -> e instanceof Auction).map(e -> (Auction) e).returns(Auction.class).name("auctions");
    }

    static final class CountBids implements AggregateFunction<Bid, Rows.Count, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Rows.Count createAccumulator() {
            return new Rows.Count();
        }

        @Override
        public Rows.Count add(Bid value, Rows.Count acc) {
            acc.n++;
            return acc;
        }

        @Override
        public Long getResult(Rows.Count acc) {
            return acc.n;
        }

        @Override
        public Rows.Count merge(Rows.Count a, Rows.Count b) {
            a.n += b.n;
            return a;
        }
    }

    static final class AuctionCountOf extends ProcessWindowFunction<Long, Rows.AuctionCount, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long auction, Context ctx, Iterable<Long> counts, Collector<Rows.AuctionCount> out) {
            out.collect(new Rows.AuctionCount(auction, counts.iterator().next(), ctx.window().getEnd()));
        }
    }

    static final class WindowBidOf extends ProcessWindowFunction<Bid, Rows.WindowBid, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long auction, Context ctx, Iterable<Bid> max, Collector<Rows.WindowBid> out) {
            out.collect(new Rows.WindowBid(ctx.window().getEnd(), max.iterator().next()));
        }
    }
}
