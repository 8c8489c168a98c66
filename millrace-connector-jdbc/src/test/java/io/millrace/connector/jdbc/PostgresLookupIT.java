package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.async.AsyncDataStream;
import io.millrace.api.async.AsyncLookupCache;
import io.millrace.api.async.AsyncOptions;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.file.FileSink;
import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PostgresLookup} behind core's {@link AsyncLookupCache} against a real server: hits answered from the cache,
 * misses cached, the size bound, a row changed in the database seen once its entry's time to live has passed (on a
 * manual clock), and readings enriched in a pipeline equal to a join computed from the table.
 */
class PostgresLookupIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    @TempDir
    Path dir;

    @BeforeAll
    static void table() {
        PG.server().execute("CREATE TABLE assets (id text PRIMARY KEY, line text NOT NULL, rpm integer, since date)",
                "INSERT INTO assets SELECT 'M' || n, 'line-' || (n % 3), 1000 + n, date '2026-01-01' + n FROM generate_series(1, 20) n");
    }

    static PostgresLookup lookup(PostgresTestServer server) {
        // tag::lookup-function[]
        return PostgresLookup.builder()
                .url(server.url()).user(server.user())
                .table("assets").keyColumns("id")        // SELECT ... FROM assets WHERE id = ?
                .connections(2)                          // per subtask
                .build();                                // reads the columns from the catalog
        // end::lookup-function[]
    }

    /** A reading of a machine, enriched with its asset row's line and rpm, or "unknown". */
    // tag::lookup[]
    static AsyncLookupCache<String, List<Object>, Row, String> enrich(PostgresLookup assets, Duration ttl) {
        return AsyncLookupCache.of((String machine) -> PostgresLookup.key(machine), assets,
                        (machine, asset) -> asset == null ? machine + "|unknown" : machine + "|" + asset.getString(1) + "|" + asset.getField(2))
                .maxEntries(1_000)                      // rows per subtask
                .expireAfterWrite(ttl)                  // then asked again: changes in the table show after at most ttl
                .cacheEmptyResults(true);               // unknown machines are not asked again within the ttl
    }
    // end::lookup[]

    static String ask(AsyncLookupCache<String, List<Object>, Row, String> cache, String machine) throws Exception {
        CompletableFuture<List<String>> answer = new CompletableFuture<>();
        cache.asyncInvoke(machine, new ResultFuture<>() {
            @Override
            public boolean complete(Collection<String> results) {
                return answer.complete(new ArrayList<>(results));
            }

            @Override
            public boolean completeExceptionally(Throwable error) {
                return answer.completeExceptionally(error);
            }
        });
        List<String> r = answer.get(30, TimeUnit.SECONDS);
        assertThat(r).hasSize(1);
        return r.get(0);
    }

    static RuntimeContext context(Clock clock) {
        return new RuntimeContext() {
            @Override
            public String operatorName() {
                return "assets";
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

    @Test
    void whenKeysRepeat_thenHitsAndMissesAreAnsweredFromTheCache_andAChangedRowShowsAfterTheTtl() throws Exception {
        PostgresTestServer server = PG.server();
        PostgresLookup assets = lookup(server);
        assertThat(assets.rowType().toString()).isEqualTo("ROW<id STRING NOT NULL, line STRING NOT NULL, rpm INT, since DATE>");
        ManualClock clock = new ManualClock(1_000);
        AsyncLookupCache<String, List<Object>, Row, String> cache = enrich(assets, Duration.ofSeconds(10));
        cache.open(context(clock));
        try {
            assertThat(ask(cache, "M4")).isEqualTo("M4|line-1|1004");
            assertThat(ask(cache, "M4")).isEqualTo("M4|line-1|1004");
            assertThat(ask(cache, "X9")).isEqualTo("X9|unknown");
            assertThat(ask(cache, "X9")).isEqualTo("X9|unknown");
            assertThat(assets.queries()).as("one query per key: the hit and the cached miss ask nothing").isEqualTo(2);
            assertThat(cache.hits()).isEqualTo(2);

            server.execute("UPDATE assets SET rpm = 4444 WHERE id = 'M4'", "INSERT INTO assets VALUES ('X9', 'line-9', NULL, NULL)");
            clock.advance(Duration.ofMillis(9_999));
            assertThat(ask(cache, "M4")).as("within the ttl: the cached row").isEqualTo("M4|line-1|1004");
            assertThat(ask(cache, "X9")).as("within the ttl: the cached miss").isEqualTo("X9|unknown");
            clock.advance(Duration.ofMillis(1));
            assertThat(ask(cache, "M4")).as("at the ttl: the changed row").isEqualTo("M4|line-1|4444");
            assertThat(ask(cache, "X9")).as("at the ttl: the new row, with a null").isEqualTo("X9|line-9|null");
            assertThat(assets.queries()).isEqualTo(4);
        } finally {
            cache.close();
            server.execute("UPDATE assets SET rpm = 1004 WHERE id = 'M4'", "DELETE FROM assets WHERE id = 'X9'");
        }
    }

    @Test
    void whenMoreKeysThanMaxEntries_thenTheLeastRecentlyUsedIsAskedAgain() throws Exception {
        PostgresLookup assets = lookup(PG.server());
        AsyncLookupCache<String, List<Object>, Row, String> cache = enrich(assets, Duration.ofMinutes(10)).maxEntries(2);
        cache.open(context(new ManualClock(0)));
        try {
            ask(cache, "M1");
            ask(cache, "M2");
            ask(cache, "M1");
            ask(cache, "M3"); // M2 goes
            assertThat(assets.queries()).isEqualTo(3);
            ask(cache, "M1");
            assertThat(assets.queries()).as("M1 stayed").isEqualTo(3);
            ask(cache, "M2");
            assertThat(assets.queries()).as("M2 was evicted").isEqualTo(4);
        } finally {
            cache.close();
        }
    }

    @Test
    void whenReadingsAreEnrichedInAPipeline_thenEachEqualsTheJoinWithTheTable() throws Exception {
        PostgresTestServer server = PG.server();
        Random random = new Random(37);
        List<String> readings = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            readings.add((random.nextInt(10) == 0 ? "X" : "M") + (1 + random.nextInt(25)));
        }
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        FileSink<String> out = FileSink.of(dir.resolve("out"), ExactlyOnceRecoveryIT.LINES);
        // tag::lookup-join[]
        DataStream<String> enriched = AsyncDataStream.apply(
                p.fromCollection(readings).keyBy(m -> m),        // each subtask caches its own machines
                enrich(lookup(server), Duration.ofMinutes(10)),
                AsyncOptions.ordered().capacity(32).timeout(Duration.ofSeconds(20)));
        // end::lookup-join[]
        enriched.sinkTo(out);
        p.execute("lookups");

        List<String> expected = new ArrayList<>();
        java.util.Map<String, String> table = new java.util.HashMap<>();
        for (String row : Tables.rows(server, "SELECT id, line, rpm FROM assets")) {
            table.put(row.substring(0, row.indexOf('|')), row);
        }
        for (String m : readings) {
            expected.add(table.getOrDefault(m, m + "|unknown"));
        }
        List<String> got = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            if (Files.exists(out.partFile(s))) {
                got.addAll(Files.readAllLines(out.partFile(s)));
            }
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void whenOptionsAreWrong_thenTheErrorNamesTheOption() {
        PostgresTestServer server = PG.server();
        assertThatThrownBy(() -> PostgresLookup.builder().url(server.url()).user(server.user()).table("assets").keyColumns("nope").build())
                .hasMessageContaining("option 'keyColumns'").hasMessageContaining("nope");
        assertThatThrownBy(() -> PostgresLookup.builder().url(server.url()).user(server.user()).table("assets").build())
                .hasMessageContaining("option 'keyColumns'");
        assertThatThrownBy(() -> PostgresLookup.builder().url("jdbc:mysql://x").table("assets").keyColumns("id").build())
                .hasMessageContaining("option 'url'");
    }
}
