package io.millrace.api.async;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The lookup cache on its own, on a manual clock, and in a pipeline. */
class AsyncLookupCacheTest {
    /** A directory that answers at once: a machine's line, nothing for machines it does not know. Counts lookups. */
    static final class Directory implements AsyncFunction<String, String> {
        final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();

        @Override
        public void asyncInvoke(String machine, ResultFuture<String> result) {
            lookups.computeIfAbsent(machine, k -> new AtomicInteger()).incrementAndGet();
            result.complete(machine.startsWith("X") ? List.of() : List.of("line-" + machine.charAt(machine.length() - 1)));
        }

        int lookups(String machine) {
            AtomicInteger n = lookups.get(machine);
            return n == null ? 0 : n.get();
        }
    }

    /** The results one call produced. */
    static final class Collected implements ResultFuture<String> {
        final List<String> values = new ArrayList<>();

        @Override
        public boolean complete(Collection<String> results) {
            values.addAll(results);
            return true;
        }

        @Override
        public boolean completeExceptionally(Throwable error) {
            throw new AssertionError(error);
        }
    }

    static RuntimeContext context(Clock clock) {
        return new RuntimeContext() {
            @Override
            public String operatorName() {
                return "lookup";
            }

            @Override
            public int subtaskIndex() {
                return 0;
            }

            @Override
            public int parallelism() {
                return 1;
            }

            @Override
            public int maxParallelism() {
                return 128;
            }

            @Override
            public KeyedStateStore state() {
                throw new IllegalStateException("not keyed");
            }

            @Override
            public Clock clock() {
                return clock;
            }
        };
    }

    private static List<String> lookUp(AsyncLookupCache<String, String, String, String> cache, String machine) throws Exception {
        Collected c = new Collected();
        cache.asyncInvoke(machine, c);
        return c.values;
    }

    private static AsyncLookupCache<String, String, String, String> cache(Directory directory) {
        return AsyncLookupCache.of((String m) -> m, directory, (String m, String line) -> m + "@" + (line == null ? "unknown" : line));
    }

    @Test
    void repeatedKeys_areAnsweredFromTheCache_andCountedAsHits() throws Exception {
        Directory directory = new Directory();
        AsyncLookupCache<String, String, String, String> cache = cache(directory);
        cache.open(context(new ManualClock(0)));

        assertThat(lookUp(cache, "M1")).containsExactly("M1@line-1");
        assertThat(lookUp(cache, "M2")).containsExactly("M2@line-2");
        assertThat(lookUp(cache, "M1")).containsExactly("M1@line-1");
        assertThat(lookUp(cache, "M1")).containsExactly("M1@line-1");

        assertThat(directory.lookups("M1")).isEqualTo(1);
        assertThat(cache.hits()).isEqualTo(2);
        assertThat(cache.misses()).isEqualTo(2);
    }

    @Test
    void expireAfterWrite_whenTheClockPassesTheTtl_thenTheKeyIsLookedUpAgain() throws Exception {
        Directory directory = new Directory();
        ManualClock clock = new ManualClock(1_000);
        AsyncLookupCache<String, String, String, String> cache = cache(directory).expireAfterWrite(Duration.ofSeconds(10));
        cache.open(context(clock));

        lookUp(cache, "M1");
        clock.advance(Duration.ofMillis(9_999));
        lookUp(cache, "M1");
        assertThat(directory.lookups("M1")).as("within the ttl").isEqualTo(1);

        clock.advance(Duration.ofMillis(1));
        lookUp(cache, "M1");
        assertThat(directory.lookups("M1")).as("at the ttl").isEqualTo(2);
        clock.advance(Duration.ofMillis(5_000));
        lookUp(cache, "M1");
        assertThat(directory.lookups("M1")).as("the new entry counts from its own store").isEqualTo(2);
    }

    @Test
    void emptyAnswers_areCachedUnlessTurnedOff_andJoinSeesNull() throws Exception {
        Directory directory = new Directory();
        AsyncLookupCache<String, String, String, String> caching = cache(directory);
        caching.open(context(new ManualClock(0)));
        assertThat(lookUp(caching, "X9")).containsExactly("X9@unknown");
        lookUp(caching, "X9");
        assertThat(directory.lookups("X9")).isEqualTo(1);

        Directory other = new Directory();
        AsyncLookupCache<String, String, String, String> notCaching = cache(other).cacheEmptyResults(false);
        notCaching.open(context(new ManualClock(0)));
        lookUp(notCaching, "X9");
        lookUp(notCaching, "X9");
        assertThat(other.lookups("X9")).isEqualTo(2);
    }

    @Test
    void maxEntries_keepsTheMostRecentlyUsedKeys() throws Exception {
        Directory directory = new Directory();
        AsyncLookupCache<String, String, String, String> cache = cache(directory).maxEntries(2);
        cache.open(context(new ManualClock(0)));

        lookUp(cache, "M1");
        lookUp(cache, "M2");
        lookUp(cache, "M1"); // M2 is now the least recently used
        lookUp(cache, "M3"); // evicts M2
        lookUp(cache, "M1");
        lookUp(cache, "M2");

        assertThat(cache.size()).isEqualTo(2);
        assertThat(directory.lookups("M1")).isEqualTo(1);
        assertThat(directory.lookups("M2")).isEqualTo(2);
    }

    @Test
    void inAPipeline_eachDistinctKeyIsLookedUpOnce_andEveryRecordIsEnriched() {
        Random random = new Random(0xCAC4EL);
        List<String> machines = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            machines.add("M" + random.nextInt(7));
        }
        Directory directory = new Directory();
        AsyncLookupCache<String, String, String, String> cache = cache(directory).expireAfterWrite(Duration.ofMinutes(1));
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).clock(new ManualClock(0)));
        CollectSink<String> out = new CollectSink<>();
        AsyncDataStream.orderedWait(p.fromCollection(machines), cache, Duration.ofSeconds(10), 8).sinkTo(out);

        p.execute("cached lookups");

        assertThat(out.results()).isEqualTo(machines.stream().map(m -> m + "@line-" + m.charAt(1)).toList());
        assertThat(directory.lookups.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(cache.misses()).isEqualTo(machines.stream().distinct().count());
        assertThat(cache.hits()).isEqualTo(500 - cache.misses());
    }
}
