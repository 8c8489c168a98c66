package io.millrace.bench.millrace;

import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.bench.workload.Auction;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Person;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Rows;
import java.util.ArrayList;
import java.util.List;

/** The stateful functions of the Nexmark queries (Millrace API). */
final class NexmarkFunctions {
    /** Q4: a bid without its auction waits at most this long (event time) for it. */
    static final long EARLY_BID_WAIT_MS = 1_000;

    private NexmarkFunctions() {}

    /** Q3: each seller (keyed by person id) joined with its auctions, whichever comes first. */
    static final class SellerJoin extends CoProcessFunction<Person, Auction, Rows.SellerAuction> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Person> person;
        private transient ListState<Auction> pending;

        @Override
        public void open(RuntimeContext context) {
            person = context.state().getState(new ValueStateDescriptor<>("person"));
            pending = context.state().getListState(new ListStateDescriptor<>("pending-auctions"));
        }

        @Override
        public void processElement1(Person p, Context ctx, Collector<Rows.SellerAuction> out) {
            person.update(p);
            for (Auction a : pending.get()) {
                out.collect(new Rows.SellerAuction(p.name(), p.city(), p.state(), a.id()));
            }
            pending.clear();
        }

        @Override
        public void processElement2(Auction a, Context ctx, Collector<Rows.SellerAuction> out) {
            Person p = person.value();
            if (p != null) {
                out.collect(new Rows.SellerAuction(p.name(), p.city(), p.state(), a.id()));
            } else {
                pending.add(a);
            }
        }
    }

    /**
     * Q4, first step, keyed by auction id: the highest bid placed before the auction expires, reported when it
     * expires if it meets the reserve. Bids seen before their auction wait for it.
     */
    static final class AuctionCloser extends CoProcessFunction<Auction, Bid, Rows.ClosedAuction> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Auction> auction;
        private transient ValueState<Long> highest;
        private transient ListState<Bid> early;

        @Override
        public void open(RuntimeContext context) {
            auction = context.state().getState(new ValueStateDescriptor<>("auction"));
            highest = context.state().getState(new ValueStateDescriptor<>("highest"));
            early = context.state().getListState(new ListStateDescriptor<>("early-bids"));
        }

        @Override
        public void processElement1(Auction a, Context ctx, Collector<Rows.ClosedAuction> out) {
            auction.update(a);
            for (Bid b : early.get()) {
                offer(a, b);
            }
            early.clear();
            ctx.timerService().registerEventTimeTimer(a.expires());
        }

        @Override
        public void processElement2(Bid b, Context ctx, Collector<Rows.ClosedAuction> out) {
            Auction a = auction.value();
            if (a != null) {
                offer(a, b);
            } else {
                early.add(b);
                ctx.timerService().registerEventTimeTimer(b.dateTime() + EARLY_BID_WAIT_MS);
            }
        }

        private void offer(Auction a, Bid b) {
            if (b.dateTime() < a.expires()) {
                Long h = highest.value();
                if (h == null || b.price() > h) {
                    highest.update(b.price());
                }
            }
        }

        @Override
        public void onTimer(long timestamp, Context ctx, Collector<Rows.ClosedAuction> out) {
            Auction a = auction.value();
            if (a == null) {
                early.clear(); // bids on an auction that had closed already
            } else if (timestamp == a.expires()) {
                Long h = highest.value();
                if (h != null && h >= a.reserve()) {
                    out.collect(new Rows.ClosedAuction(a.category(), h));
                }
                auction.clear();
                highest.clear();
            }
        }
    }

    /** Q4, second step, keyed by category: the running average of closing prices. */
    static final class CategoryMean extends KeyedProcessFunction<Long, Rows.ClosedAuction, Rows.CategoryAverage> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Rows.Mean> mean;

        @Override
        public void open(RuntimeContext context) {
            mean = context.state().getState(new ValueStateDescriptor<>("mean"));
        }

        @Override
        public void processElement(Rows.ClosedAuction c, Context<Long> ctx, Collector<Rows.CategoryAverage> out) {
            Rows.Mean m = mean.value();
            m = m == null ? new Rows.Mean(c.price(), 1) : new Rows.Mean(m.sum + c.price(), m.n + 1);
            mean.update(m);
            out.collect(new Rows.CategoryAverage(c.category(), m.sum / m.n, m.n));
        }
    }

    /** Q5, second step, keyed by window end: the auction with the most bids, when the window is complete. */
    static final class Hottest extends KeyedProcessFunction<Long, Rows.AuctionCount, Rows.AuctionCount> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Rows.AuctionCount> best;

        @Override
        public void open(RuntimeContext context) {
            best = context.state().getState(new ValueStateDescriptor<>("hottest"));
        }

        @Override
        public void processElement(Rows.AuctionCount c, Context<Long> ctx, Collector<Rows.AuctionCount> out) {
            Rows.AuctionCount b = best.value();
            if (b == null) {
                ctx.timerService().registerEventTimeTimer(c.windowEnd() - 1);
            }
            if (b == null || Rows.hotter(c.count(), c.auction(), b.count(), b.auction())) {
                best.update(c);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Long> ctx, Collector<Rows.AuctionCount> out) {
            out.collect(best.value());
            best.clear();
        }
    }

    /** Q7, second step, keyed by window end: the highest bid of the window, when it is complete. */
    static final class Highest extends KeyedProcessFunction<Long, Rows.WindowBid, Bid> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Bid> best;

        @Override
        public void open(RuntimeContext context) {
            best = context.state().getState(new ValueStateDescriptor<>("highest-bid"));
        }

        @Override
        public void processElement(Rows.WindowBid w, Context<Long> ctx, Collector<Bid> out) {
            Bid b = best.value();
            if (b == null) {
                ctx.timerService().registerEventTimeTimer(w.windowEnd() - 1);
            }
            if (b == null || Rows.beats(w.bid(), b)) {
                best.update(w.bid());
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Long> ctx, Collector<Bid> out) {
            out.collect(best.value());
            best.clear();
        }
    }

    /**
     * Q8, keyed by person id: a person joined with the auctions it opens within the same 10 s tumbling window.
     * State lives until the window ends.
     */
    static final class NewUsers extends CoProcessFunction<Person, Auction, Rows.NewUser> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Person> person;
        private transient ListState<Auction> pending;

        @Override
        public void open(RuntimeContext context) {
            person = context.state().getState(new ValueStateDescriptor<>("person"));
            pending = context.state().getListState(new ListStateDescriptor<>("pending-auctions"));
        }

        static long windowOf(long time) {
            return time - Math.floorMod(time, Query.Q8_SIZE);
        }

        @Override
        public void processElement1(Person p, Context ctx, Collector<Rows.NewUser> out) {
            long w = windowOf(p.dateTime());
            person.update(p);
            for (Auction a : pending.get()) {
                if (windowOf(a.dateTime()) == w) {
                    out.collect(new Rows.NewUser(p.id(), p.name(), a.id(), w));
                }
            }
            pending.clear();
            ctx.timerService().registerEventTimeTimer(w + Query.Q8_SIZE - 1);
        }

        @Override
        public void processElement2(Auction a, Context ctx, Collector<Rows.NewUser> out) {
            long w = windowOf(a.dateTime());
            Person p = person.value();
            if (p != null) {
                if (windowOf(p.dateTime()) == w) {
                    out.collect(new Rows.NewUser(p.id(), p.name(), a.id(), w));
                }
            } else {
                pending.add(a);
                ctx.timerService().registerEventTimeTimer(w + Query.Q8_SIZE - 1);
            }
        }

        @Override
        public void onTimer(long timestamp, Context ctx, Collector<Rows.NewUser> out) {
            Person p = person.value();
            if (p != null && windowOf(p.dateTime()) + Query.Q8_SIZE - 1 <= timestamp) {
                person.clear();
            }
            List<Auction> keep = new ArrayList<>();
            for (Auction a : pending.get()) {
                if (windowOf(a.dateTime()) + Query.Q8_SIZE - 1 > timestamp) {
                    keep.add(a);
                }
            }
            if (keep.isEmpty()) {
                pending.clear();
            } else {
                pending.update(keep);
            }
        }
    }

    /** IJOIN: an auction (left) and a bid on it (right) within the interval; the bid if the auction was still open. */
    static final class OpenAuctionBids extends ProcessJoinFunction<Auction, Bid, Rows.AuctionBid> {
        private static final long serialVersionUID = 1L;

        @Override
        public void processElement(Auction a, Bid b, Context ctx, Collector<Rows.AuctionBid> out) {
            if (b.dateTime() < a.expires()) {
                out.collect(new Rows.AuctionBid(a.id(), b.bidder(), b.price(), b.dateTime()));
            }
        }
    }

    /** COUNTS, keyed by auction: the number of bids so far in value state, reported at every multiple of 10. */
    static final class BidCount extends KeyedProcessFunction<Long, Bid, Rows.KeyReached> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("bids"));
        }

        @Override
        public void processElement(Bid b, Context<Long> ctx, Collector<Rows.KeyReached> out) {
            Long c = count.value();
            long n = c == null ? 1 : c + 1;
            count.update(n);
            if (n % Query.COUNTS_EVERY == 0) {
                out.collect(new Rows.KeyReached(b.auction(), n));
            }
        }
    }
}
