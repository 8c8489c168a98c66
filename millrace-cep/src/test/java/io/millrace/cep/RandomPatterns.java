package io.millrace.cep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random events and patterns for the equivalence tests: every contiguity, quantifier, negation and skip strategy. */
final class RandomPatterns {
    /** An event: its key, a unique id (for comparing matches), a kind 0..2, a value 0..9 and its time. */
    record Ev(String key, int id, int kind, int value, long time) {}

    private RandomPatterns() {}

    /** {@code perKey} events for each of two keys, with distinct, increasing times per key; sorted by time. */
    static List<Ev> events(Random r, int perKey) {
        return events(r, perKey, List.of("k1", "k2"));
    }

    /** {@code perKey} events for each key, with distinct, increasing times per key; sorted by time. */
    static List<Ev> events(Random r, int perKey, List<String> keys) {
        List<Ev> all = new ArrayList<>();
        int id = 0;
        for (String key : keys) {
            long t = 1 + r.nextInt(3);
            for (int i = 0; i < perKey; i++) {
                all.add(new Ev(key, id++, r.nextInt(3), r.nextInt(10), t));
                t += 1 + r.nextInt(3);
            }
        }
        all.sort((a, b) -> a.time() != b.time() ? Long.compare(a.time(), b.time()) : Integer.compare(a.id(), b.id()));
        return all;
    }

    static Pattern<Ev> pattern(Random r) {
        AfterMatchSkipStrategy skip = switch (r.nextInt(5)) {
            case 0 -> AfterMatchSkipStrategy.noSkip();
            case 1 -> AfterMatchSkipStrategy.skipToNext();
            case 2 -> AfterMatchSkipStrategy.skipPastLastEvent();
            case 3 -> AfterMatchSkipStrategy.skipToFirst("v" + r.nextInt(3));
            default -> AfterMatchSkipStrategy.skipToLast("v" + r.nextInt(3));
        };
        int elements = 1 + r.nextInt(3);
        int[] names = {0};
        Pattern<Ev> p = null;
        for (int i = 0; i < elements; i++) {
            if (p != null && r.nextInt(5) == 0) {
                String n = "n" + i;
                p = r.nextBoolean() ? p.notNext(n) : p.notFollowedBy(n);
                p = p.where(simple(r));
            }
            int c = r.nextInt(3);
            if (r.nextInt(6) == 0) {
                Pattern<Ev> g = atom(r, Pattern.begin("v" + names[0]++), names[0] - 1);
                if (r.nextInt(4) == 0) {                         // a group inside the group
                    Pattern<Ev> inner = atom(r, Pattern.begin("v" + names[0]++), names[0] - 1);
                    String n = "v" + names[0]++;
                    inner = atom(r, inner.followedBy(n), names[0] - 1);
                    g = quantify(r, r.nextBoolean() ? g.next(inner) : g.followedByAny(inner), false);
                } else if (r.nextBoolean()) {
                    String n = "v" + names[0]++;
                    g = atom(r, r.nextBoolean() ? g.next(n) : g.followedBy(n), names[0] - 1);
                }
                if (p == null) {
                    p = Pattern.begin(g, skip);
                } else {
                    p = c == 0 ? p.next(g) : c == 1 ? p.followedBy(g) : p.followedByAny(g);
                }
                p = quantify(r, p, false);
            } else {
                String n = "v" + names[0]++;
                if (p == null) {
                    p = Pattern.begin(n, skip);
                } else {
                    p = c == 0 ? p.next(n) : c == 1 ? p.followedBy(n) : p.followedByAny(n);
                }
                p = atom(r, p, names[0] - 1);
            }
        }
        if (r.nextInt(3) > 0) {
            p = p.within(Duration.ofMillis(4 + r.nextInt(18)));
        }
        return p;
    }

    private static Pattern<Ev> atom(Random r, Pattern<Ev> p, int index) {
        String self = "v" + index;
        switch (r.nextInt(8)) {
            case 0 -> {}                                       // every event
            case 1 -> {
                int v = r.nextInt(10);
                p = p.where(e -> e.value() >= v);
            }
            case 2 -> {                                        // rising values within the variable: the previous event
                int k = r.nextInt(3);
                p = p.where((Ev e, IterativeCondition.Context<Ev> ctx) -> {
                    List<Ev> mine = ctx.eventsOf(self);
                    return e.kind() != k && (mine.isEmpty() || e.value() > mine.get(mine.size() - 1).value());
                });
            }
            case 3 -> {                                        // a sum over an earlier variable and this one
                String earlier = "v" + Math.max(0, index - 1);
                int limit = 8 + r.nextInt(12);
                p = p.where((Ev e, IterativeCondition.Context<Ev> ctx) -> {
                    int sum = e.value();
                    for (Ev x : ctx.eventsOf(earlier)) {
                        sum += x.value();
                    }
                    for (Ev x : ctx.eventsOf(self)) {
                        sum += x.value();
                    }
                    return sum <= limit;
                });
            }
            default -> p = p.where(simple(r));
        }
        if (r.nextInt(6) == 0) {
            int k = r.nextInt(3);
            p = p.or(e -> e.kind() == k && e.value() > 7);
        }
        return quantify(r, p, true);
    }

    private static Pattern<Ev> quantify(Random r, Pattern<Ev> p, boolean atom) {
        boolean loops = false;
        boolean unbounded = false;
        switch (r.nextInt(10)) {
            case 0, 1, 2, 3 -> {}
            case 4 -> p = p.optional();
            case 5 -> {
                int n = 1 + r.nextInt(3);
                p = p.times(n);
                loops = n > 1;
            }
            case 6 -> {
                int n = 1 + r.nextInt(2);
                p = p.times(n, n + 1 + r.nextInt(2));
                loops = true;
            }
            case 7 -> {
                p = p.timesOrMore(1 + r.nextInt(2));
                loops = unbounded = true;
            }
            default -> {
                p = p.oneOrMore();
                loops = unbounded = true;
            }
        }
        if (loops) {
            switch (r.nextInt(3)) {
                case 1 -> p = p.consecutive();
                case 2 -> p = p.allowCombinations();
                default -> {}
            }
            if (atom && r.nextInt(4) == 0) {
                p = p.greedy();
            }
            if (atom && unbounded && r.nextInt(4) == 0) {
                p = p.until(simple(r));
            }
            if (r.nextInt(5) == 0) {
                p = p.optional();
            }
        }
        return p;
    }

    private static SimpleCondition<Ev> simple(Random r) {
        int k = r.nextInt(3);
        int v = r.nextInt(10);
        return switch (r.nextInt(4)) {
            case 0 -> e -> e.kind() == k;
            case 1 -> e -> e.kind() != k;
            case 2 -> e -> e.value() >= v;
            default -> e -> e.kind() == k || e.value() < v / 3;
        };
    }
}
