package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.WindowedStream;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.Triggers;
import io.millrace.api.window.Windows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Count windows and global windows with count and event-time triggers through the local runtime, with
 * random parallelism, batch sizes and channel capacities. A key's records reach its window subtask in input
 * order per source split, interleaved across splits; so each key's firings must describe one arrival
 * sequence that keeps every split's order, and with one source subtask exactly the input order.
 */
public class CountAndGlobalWindowIT {
    private static final long SEED = 0x5EED_0004L;

    /** One firing: the key, the firing index and the ids of the window's records in arrival order. */
    record Firing(int key, int firing, List<Integer> ids) implements java.io.Serializable {}

    /** Lists the window's records in the order the window holds them. */
    static final class Ids extends ProcessWindowFunction<Event, Firing, Integer, GlobalWindow> {
        @Override
        public void process(Integer key, Context<GlobalWindow> ctx, Iterable<Event> elements, Collector<Firing> out) {
            List<Integer> ids = new ArrayList<>();
            elements.forEach(e -> ids.add(e.id()));
            out.collect(new Firing(key, ctx.firing(), ids));
        }
    }

    /** How the windows of a round are defined. */
    enum Kind { COUNT, PURGING_COUNT_TRIGGER, CUMULATIVE_COUNT_TRIGGER, EVENT_TIME_AT_END }

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    @Test
    void countAndGlobalWindows_describeOneArrivalOrderThatKeepsEverySplitsOrder() {
        Kind[] kinds = Kind.values();
        for (int round = 0; round < 16; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            Kind kind = kinds[round % kinds.length];
            DisorderedInput input = DisorderedInput.generate(random, 100 + random.nextInt(2_000), 1 + random.nextInt(25), 1 + random.nextInt(50), 0.05);
            long slide = 1 + random.nextInt(12);
            long size = kind == Kind.COUNT ? slide * (1 + random.nextInt(3)) + (random.nextBoolean() ? 0 : random.nextInt((int) slide)) : slide;
            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            int sources = round % 4 == 3 ? 1 : runtime.parallelism("source");
            Pipeline p = runtime.pipeline();
            int maxPoll = 1 + random.nextInt(64); // a list source: its splits are ranges [total*s/p, total*(s+1)/p)
            DataStream<Event> events = input.source(p, sources, maxPoll);
            WindowedStream<Event, Integer, GlobalWindow> windowed = switch (kind) {
                case COUNT -> events.keyBy(Event::key).countWindow(size, slide);
                case PURGING_COUNT_TRIGGER -> events.keyBy(Event::key).window(Windows.global()).trigger(Triggers.purging(Triggers.count(slide)));
                case CUMULATIVE_COUNT_TRIGGER -> events.keyBy(Event::key).window(Windows.global()).trigger(Triggers.count(slide));
                case EVENT_TIME_AT_END -> events.keyBy(Event::key).window(Windows.global()).trigger(Triggers.eventTime());
            };
            CollectSink<Firing> sink = new CollectSink<>();
            windowed.process(new Ids()).parallelism(runtime.parallelism("windows")).sinkTo(sink);
            p.execute("count windows");
            String where = "seed " + seed + " (round " + round + "): " + kind + " size " + size + " slide " + slide
                    + " sources " + sources + " maxPoll " + maxPoll + " records " + input.events.size() + " [" + runtime + "]";

            Map<Integer, List<Firing>> byKey = new HashMap<>();
            for (Firing f : sink.results()) {
                byKey.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(f);
            }
            Map<Integer, List<Event>> input0 = new HashMap<>();
            input.events.forEach(e -> input0.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e));
            assertThat(input0.keySet()).as(where + ": keys that fired").containsAll(byKey.keySet());
            for (Map.Entry<Integer, List<Event>> k : input0.entrySet()) {
                List<Firing> fired = byKey.getOrDefault(k.getKey(), List.of());
                fired.sort((a, b) -> Integer.compare(a.firing(), b.firing()));
                int n = k.getValue().size();
                List<Integer> arrival = new ArrayList<>();
                if (kind == Kind.EVENT_TIME_AT_END) {
                    assertThat(fired).as(where + ": one firing per key at the end").hasSize(1);
                    assertThat(fired.get(0).firing()).as(where).isZero();
                    arrival.addAll(fired.get(0).ids());
                    assertThat(arrival).as(where + ": key " + k.getKey() + " holds all its records").hasSize(n);
                } else {
                    int firings = (int) (n / slide);
                    assertThat(fired).as(where + ": firings of key " + k.getKey() + " with " + n + " records").hasSize(firings);
                    for (int j = 0; j < firings; j++) {
                        Firing f = fired.get(j);
                        assertThat(f.firing()).as(where + ": firing index").isEqualTo(j);
                        List<Integer> ids = f.ids();
                        long expectedSize = switch (kind) {
                            case COUNT -> Math.min((j + 1) * slide, size);
                            case PURGING_COUNT_TRIGGER -> slide;
                            default -> (j + 1) * slide;
                        };
                        assertThat(ids).as(where + ": firing " + j + " of key " + k.getKey()).hasSize((int) expectedSize);
                        List<Integer> newest = ids.subList((int) (ids.size() - slide), ids.size());
                        assertThat(ids.subList(0, (int) (ids.size() - slide)))
                                .as(where + ": firing " + j + " of key " + k.getKey() + " continues the earlier arrivals")
                                .isEqualTo(arrival.subList(arrival.size() - (ids.size() - (int) slide), arrival.size()));
                        arrival.addAll(newest);
                    }
                }
                assertKeepsSplitOrder(arrival, k.getValue(), input.events.size(), sources, where + ": key " + k.getKey());
            }
        }
    }

    /**
     * {@code arrival} holds distinct records of the key; per source split (a contiguous range of ids) they are
     * a prefix of the key's records of that split, in input order; with one split, the input order itself.
     */
    private static void assertKeepsSplitOrder(List<Integer> arrival, List<Event> keyEvents, int total, int splits, String where) {
        assertThat(arrival).as(where + ": distinct").doesNotHaveDuplicates();
        for (int s = 0; s < splits; s++) {
            int from = total * s / splits;
            int to = total * (s + 1) / splits;
            List<Integer> ofSplit = keyEvents.stream().map(Event::id).filter(id -> id >= from && id < to).toList();
            List<Integer> arrived = arrival.stream().filter(id -> id >= from && id < to).toList();
            assertThat(arrived).as(where + ": split " + s + " in order").isEqualTo(ofSplit.subList(0, arrived.size()));
        }
    }
}
