package io.millrace.bench.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Batch recomputation of every query's results over a whole input, the straightforward way (no windows, no state
 * expiry), to check the streaming versions. Results are canonical strings ({@link #canonical}), so that lists from
 * different engines and orders compare after sorting. Q4 is order-dependent (running averages) and is recomputed as
 * its closed auctions ({@link Rows.ClosedAuction}) instead.
 */
public final class Recompute {
    private Recompute() {}

    /** The expected results of {@code q} over {@code input}, canonical and sorted. */
    public static List<String> expected(Query q, Input input) {
        List<Object> records = new ArrayList<>();
        for (long s = 0; s < input.count(); s++) {
            records.add(input.record(s));
        }
        List<Object> out = new ArrayList<>();
        switch (q) {
            case Q0 -> bids(records).forEach(out::add);
            case Q1 -> bids(records).forEach(b -> out.add(new Bid(b.auction(), b.bidder(), b.price() * 908 / 1000, b.channel(), b.url(), b.dateTime())));
            case Q2 -> bids(records).stream().filter(b -> b.auction() % Query.Q2_MODULUS == 0).forEach(b -> out.add(new Rows.AuctionPrice(b.auction(), b.price())));
            case Q3 -> q3(records, out);
            case Q4 -> q4(records, out);
            case Q5 -> q5(records, out);
            case Q7 -> q7(records, out);
            case Q8 -> q8(records, out);
            case COUNTS -> counts(records, out);
            case IJOIN -> ijoin(records, out);
            case TJOIN -> tjoin(records, out);
            case SLIDING -> sliding(records, out);
            case SESSION -> sessions(records, out);
            case TTL -> ttl(records, out);
        }
        return sorted(out);
    }

    /** One result as a string; doubles to 6 decimals. */
    public static String canonical(Object row) {
        if (row instanceof Rows.SensorAverage a) {
            return String.format(Locale.ROOT, "SensorAverage[%d, %d, %.6f]", a.sensor(), a.windowEnd(), a.average());
        }
        return String.valueOf(row);
    }

    public static List<String> sorted(List<?> rows) {
        List<String> s = new ArrayList<>(rows.size());
        for (Object r : rows) {
            s.add(canonical(r));
        }
        s.sort(null);
        return s;
    }

    private static List<Bid> bids(List<Object> records) {
        List<Bid> bids = new ArrayList<>();
        for (Object r : records) {
            if (r instanceof Bid b) {
                bids.add(b);
            }
        }
        return bids;
    }

    private static void q3(List<Object> records, List<Object> out) {
        Map<Long, Person> sellers = new HashMap<>();
        for (Object r : records) {
            if (r instanceof Person p && Query.Q3_STATES.contains(p.state())) {
                sellers.put(p.id(), p);
            }
        }
        for (Object r : records) {
            if (r instanceof Auction a && a.category() == Query.Q3_CATEGORY && sellers.containsKey(a.seller())) {
                Person p = sellers.get(a.seller());
                out.add(new Rows.SellerAuction(p.name(), p.city(), p.state(), a.id()));
            }
        }
    }

    private static void q4(List<Object> records, List<Object> out) {
        Map<Long, Auction> auctions = new HashMap<>();
        Map<Long, Long> highest = new HashMap<>();
        for (Object r : records) {
            if (r instanceof Auction a) {
                auctions.put(a.id(), a);
            }
        }
        for (Bid b : bids(records)) {
            Auction a = auctions.get(b.auction());
            if (a != null && b.dateTime() < a.expires()) {
                highest.merge(b.auction(), b.price(), Math::max);
            }
        }
        highest.forEach((id, price) -> {
            Auction a = auctions.get(id);
            if (price >= a.reserve()) {
                out.add(new Rows.ClosedAuction(a.category(), price));
            }
        });
    }

    private static void q5(List<Object> records, List<Object> out) {
        Map<Long, Map<Long, Long>> counts = new TreeMap<>();
        for (Bid b : bids(records)) {
            long last = b.dateTime() - Math.floorMod(b.dateTime(), Query.Q5_SLIDE);
            for (long start = last; start > b.dateTime() - Query.Q5_SIZE; start -= Query.Q5_SLIDE) {
                counts.computeIfAbsent(start + Query.Q5_SIZE, k -> new HashMap<>()).merge(b.auction(), 1L, Long::sum);
            }
        }
        counts.forEach((end, perAuction) -> {
            long bestAuction = -1;
            long bestCount = -1;
            for (Map.Entry<Long, Long> e : perAuction.entrySet()) {
                if (bestAuction < 0 || Rows.hotter(e.getValue(), e.getKey(), bestCount, bestAuction)) {
                    bestAuction = e.getKey();
                    bestCount = e.getValue();
                }
            }
            out.add(new Rows.AuctionCount(bestAuction, bestCount, end));
        });
    }

    private static void q7(List<Object> records, List<Object> out) {
        Map<Long, Bid> best = new TreeMap<>();
        for (Bid b : bids(records)) {
            long end = b.dateTime() - Math.floorMod(b.dateTime(), Query.Q7_SIZE) + Query.Q7_SIZE;
            best.merge(end, b, (x, y) -> Rows.beats(y, x) ? y : x);
        }
        out.addAll(best.values());
    }

    private static void q8(List<Object> records, List<Object> out) {
        Map<Long, Person> people = new HashMap<>();
        for (Object r : records) {
            if (r instanceof Person p) {
                people.put(p.id(), p);
            }
        }
        for (Object r : records) {
            if (r instanceof Auction a) {
                Person p = people.get(a.seller());
                long w = a.dateTime() - Math.floorMod(a.dateTime(), Query.Q8_SIZE);
                if (p != null && p.dateTime() - Math.floorMod(p.dateTime(), Query.Q8_SIZE) == w) {
                    out.add(new Rows.NewUser(p.id(), p.name(), a.id(), w));
                }
            }
        }
    }

    /** Every bid placed from its auction's opening (inclusive) to its expiry (exclusive). */
    private static void ijoin(List<Object> records, List<Object> out) {
        Map<Long, Auction> auctions = new HashMap<>();
        for (Object r : records) {
            if (r instanceof Auction a) {
                auctions.put(a.id(), a);
            }
        }
        for (Bid b : bids(records)) {
            Auction a = auctions.get(b.auction());
            if (a != null && a.dateTime() <= b.dateTime() && b.dateTime() < a.expires()) {
                out.add(new Rows.AuctionBid(a.id(), b.bidder(), b.price(), b.dateTime()));
            }
        }
    }

    /** Every bid with the latest of its auction's terms valid at or before its time, if its price meets the reserve. */
    private static void tjoin(List<Object> records, List<Object> out) {
        Map<Long, TreeMap<Long, AuctionTerms>> versions = new HashMap<>();
        for (Object r : records) {
            if (r instanceof Auction a) {
                AuctionTerms opening = AuctionTerms.opening(a);
                versions.computeIfAbsent(opening.auction(), k -> new TreeMap<>()).put(opening.validFrom(), opening);
                AuctionTerms revision = AuctionTerms.revision(a);
                if (revision != null) {
                    versions.computeIfAbsent(revision.auction(), k -> new TreeMap<>()).put(revision.validFrom(), revision);
                }
            }
        }
        for (Bid b : bids(records)) {
            TreeMap<Long, AuctionTerms> v = versions.get(b.auction());
            Map.Entry<Long, AuctionTerms> valid = v == null ? null : v.floorEntry(b.dateTime());
            if (valid != null && b.price() >= valid.getValue().reserve()) {
                AuctionTerms t = valid.getValue();
                out.add(new Rows.BidTerms(b.auction(), b.bidder(), b.price(), t.reserve(), t.category(), b.dateTime()));
            }
        }
    }

    private static void counts(List<Object> records, List<Object> out) {
        Map<Long, Long> counts = new HashMap<>();
        for (Bid b : bids(records)) {
            long n = counts.merge(b.auction(), 1L, Long::sum);
            if (n % Query.COUNTS_EVERY == 0) {
                out.add(new Rows.KeyReached(b.auction(), n));
            }
        }
    }

    private static void sliding(List<Object> records, List<Object> out) {
        Map<List<Long>, Rows.Mean> windows = new HashMap<>();
        for (Object o : records) {
            Reading r = (Reading) o;
            long last = r.time() - Math.floorMod(r.time(), Query.SLIDING_SLIDE);
            for (long start = last; start > r.time() - Query.SLIDING_SIZE; start -= Query.SLIDING_SLIDE) {
                Rows.Mean m = windows.computeIfAbsent(List.of(r.key(), start + Query.SLIDING_SIZE), k -> new Rows.Mean());
                m.sum += r.value();
                m.n++;
            }
        }
        windows.forEach((k, m) -> out.add(new Rows.SensorAverage(k.get(0), k.get(1), m.sum / m.n)));
    }

    private static void sessions(List<Object> records, List<Object> out) {
        Map<Long, List<Long>> times = new HashMap<>();
        for (Object o : records) {
            Reading r = (Reading) o;
            times.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.time());
        }
        times.forEach((machine, ts) -> {
            ts.sort(null);
            long start = ts.get(0);
            long last = start;
            long n = 0;
            for (long t : ts) {
                if (t - last > Query.SESSION_GAP) {
                    out.add(new Rows.RunCycle(machine, start, last + Query.SESSION_GAP, n));
                    start = t;
                    n = 0;
                }
                last = t;
                n++;
            }
            out.add(new Rows.RunCycle(machine, start, last + Query.SESSION_GAP, n));
        });
    }

    private static void ttl(List<Object> records, List<Object> out) {
        Map<Long, Long> counts = new HashMap<>();
        for (Object o : records) {
            Reading r = (Reading) o;
            if (counts.merge(r.key(), 1L, Long::sum) == Query.TTL_THRESHOLD) {
                out.add(new Rows.KeyReached(r.key(), Query.TTL_THRESHOLD));
            }
        }
    }
}
