package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.sql.connector.NexmarkGenerator;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Nexmark benchmark's published DDL, views and queries over the {@code nexmark} connector, at parallelism 1 and
 * 4; each query's rows equal a recomputation from {@link NexmarkGenerator}'s events.
 */
class NexmarkSqlTest {
    static final long EVENTS = 40_000;
    static final int RATE = 1_000;
    static final NexmarkGenerator GENERATOR = new NexmarkGenerator(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(), RATE, 1, 3, 46);

    // tag::ddl[]
    static final String DDL = """
            CREATE TABLE nexmark (
                event_type int,
                person ROW<
                    id  BIGINT,
                    name  VARCHAR,
                    emailAddress  VARCHAR,
                    creditCard  VARCHAR,
                    city  VARCHAR,
                    state  VARCHAR,
                    dateTime TIMESTAMP(3),
                    extra  VARCHAR>,
                auction ROW<
                    id  BIGINT,
                    itemName  VARCHAR,
                    description  VARCHAR,
                    initialBid  BIGINT,
                    reserve  BIGINT,
                    dateTime  TIMESTAMP(3),
                    expires  TIMESTAMP(3),
                    seller  BIGINT,
                    category  BIGINT,
                    extra  VARCHAR>,
                bid ROW<
                    auction  BIGINT,
                    bidder  BIGINT,
                    price  BIGINT,
                    channel  VARCHAR,
                    url  VARCHAR,
                    dateTime  TIMESTAMP(3),
                    extra  VARCHAR>,
                dateTime AS
                    CASE
                        WHEN event_type = 0 THEN person.dateTime
                        WHEN event_type = 1 THEN auction.dateTime
                        ELSE bid.dateTime
                    END,
                WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
            ) WITH (
                'connector' = 'nexmark',
                'first-event.rate' = '1000',
                'next-event.rate' = '1000',
                'events.num' = '40000',
                'person.proportion' = '1',
                'auction.proportion' = '3',
                'bid.proportion' = '46',
                'speedup' = 'unlimited'
            );

            CREATE VIEW person AS
            SELECT person.id, person.name, person.emailAddress, person.creditCard, person.city, person.state, dateTime, person.extra
            FROM nexmark WHERE event_type = 0;

            CREATE VIEW auction AS
            SELECT auction.id, auction.itemName, auction.description, auction.initialBid, auction.reserve, dateTime, auction.expires,
                   auction.seller, auction.category, auction.extra
            FROM nexmark WHERE event_type = 1;

            CREATE VIEW bid AS
            SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, dateTime, bid.extra
            FROM nexmark WHERE event_type = 2;
            """;
    // end::ddl[]

    private static SqlSession session(int parallelism) {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(parallelism));
        sql.executeScript(DDL);
        return sql;
    }

    private static List<String> sorted(List<Row> rows) {
        List<String> s = new ArrayList<>(rows.stream().map(Row::toString).toList());
        s.sort(null);
        return s;
    }

    private static List<NexmarkGenerator.Bid> bids() {
        List<NexmarkGenerator.Bid> bids = new ArrayList<>();
        for (long n = 0; n < EVENTS; n++) {
            if (GENERATOR.eventType(n) == 2) {
                bids.add(GENERATOR.bid(n));
            }
        }
        return bids;
    }

    private static String bidRow(NexmarkGenerator.Bid b, Object price) {
        return "+I[" + b.auction() + ", " + b.bidder() + ", " + price + ", " + Instant.ofEpochMilli(b.dateTime()) + ", " + b.extra() + "]";
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q0_passThrough(int parallelism) {
        // tag::q0[]
        String q0 = "SELECT auction, bidder, price, dateTime, extra FROM bid";
        // end::q0[]
        List<String> expected = new ArrayList<>(bids().stream().map(b -> bidRow(b, b.price())).toList());
        expected.sort(null);
        assertThat(expected).hasSizeGreaterThan(30_000);
        assertThat(sorted(session(parallelism).query(q0))).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q1_currencyConversion_inExactDecimals(int parallelism) {
        // tag::q1[]
        String q1 = """
                SELECT
                    auction,
                    bidder,
                    0.908 * price as price, -- convert dollar to euro
                    dateTime,
                    extra
                FROM bid
                """;
        // end::q1[]
        List<Row> rows = session(parallelism).query(q1);
        List<String> expected = new ArrayList<>(bids().stream()
                .map(b -> bidRow(b, new BigDecimal("0.908").multiply(BigDecimal.valueOf(b.price())).toPlainString())).toList());
        expected.sort(null);
        assertThat(sorted(rows)).containsExactlyElementsOf(expected);
        assertThat(rows.get(0).type().typeName(2)).isEqualTo("DECIMAL(23, 3)"); // Flink's type: the sink of q1 is DECIMAL(23, 3)
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q2_selection(int parallelism) {
        String q2 = "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0";
        List<String> expected = new ArrayList<>(bids().stream().filter(b -> b.auction() % 123 == 0)
                .map(b -> "+I[" + b.auction() + ", " + b.price() + "]").toList());
        expected.sort(null);
        assertThat(expected).isNotEmpty();
        assertThat(sorted(session(parallelism).query(q2))).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q5_hotItems_itsWindowedCounts(int parallelism) {
        // the AuctionBids part of q5 (the whole query joins it with its maximum per window, which needs joins)
        String auctionBids = """
                SELECT
                  auction,
                  count(*) AS num,
                  window_start AS starttime,
                  window_end AS endtime
                  FROM TABLE(
                          HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
                  GROUP BY auction, window_start, window_end
                """;
        Map<List<Long>, Long> counts = new HashMap<>();
        for (NexmarkGenerator.Bid b : bids()) {
            long ts = b.dateTime();
            for (long start = ts - Math.floorMod(ts, 2_000L); start > ts - 10_000; start -= 2_000) {
                counts.merge(List.of(b.auction(), start), 1L, Long::sum);
            }
        }
        List<String> expected = new ArrayList<>();
        counts.forEach((k, c) -> expected.add("+I[" + k.get(0) + ", " + c + ", " + Instant.ofEpochMilli(k.get(1)) + ", "
                + Instant.ofEpochMilli(k.get(1) + 10_000) + "]"));
        expected.sort(null);
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(sorted(session(parallelism).query(auctionBids))).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q7_highestBid_itsWindowedMaximum(int parallelism) {
        // the B1 part of q7 (the whole query joins the bids with it, which needs joins)
        String maxPerWindow = """
                SELECT MAX(price) AS maxprice, window_end as dateTime
                FROM TABLE(
                        TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
                GROUP BY window_start, window_end
                """;
        Map<Long, Long> max = new TreeMap<>();
        for (NexmarkGenerator.Bid b : bids()) {
            max.merge(b.dateTime() - Math.floorMod(b.dateTime(), 10_000L) + 10_000, b.price(), Math::max);
        }
        List<String> expected = new ArrayList<>();
        max.forEach((end, p) -> expected.add("+I[" + p + ", " + Instant.ofEpochMilli(end) + "]"));
        expected.sort(null);
        assertThat(expected).hasSize(4);
        assertThat(sorted(session(parallelism).query(maxPerWindow))).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q21_channelIds_withCaseAndRegexpExtract(int parallelism) {
        String q21 = """
                SELECT
                    auction, bidder, price, channel,
                    CASE
                        WHEN lower(channel) = 'apple' THEN '0'
                        WHEN lower(channel) = 'google' THEN '1'
                        WHEN lower(channel) = 'facebook' THEN '2'
                        WHEN lower(channel) = 'baidu' THEN '3'
                        ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
                        END
                    AS channel_id FROM bid
                    where REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) is not null or
                          lower(channel) in ('apple', 'google', 'facebook', 'baidu')
                """;
        Map<String, String> hot = Map.of("apple", "0", "google", "1", "facebook", "2", "baidu", "3");
        List<String> expected = new ArrayList<>();
        for (NexmarkGenerator.Bid b : bids()) {
            String lower = b.channel().toLowerCase(java.util.Locale.ROOT);
            int at = b.url().indexOf("&channel_id=");
            String id = hot.containsKey(lower) ? hot.get(lower) : at < 0 ? null : b.url().substring(at + "&channel_id=".length());
            if (id != null) {
                expected.add("+I[" + b.auction() + ", " + b.bidder() + ", " + b.price() + ", " + b.channel() + ", " + id + "]");
            }
        }
        expected.sort(null);
        assertThat(expected).hasSize(bids().size()); // every bid has a hot channel or a channel_id
        assertThat(sorted(session(parallelism).query(q21))).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 4})
    void q22_urlDirectories_withSplitIndex(int parallelism) {
        String q22 = """
                SELECT
                    auction, bidder, price, channel,
                    SPLIT_INDEX(url, '/', 3) as dir1,
                    SPLIT_INDEX(url, '/', 4) as dir2,
                    SPLIT_INDEX(url, '/', 5) as dir3 FROM bid
                """;
        List<String> expected = new ArrayList<>();
        for (NexmarkGenerator.Bid b : bids()) {
            String[] dirs = b.url().split("/");
            expected.add("+I[" + b.auction() + ", " + b.bidder() + ", " + b.price() + ", " + b.channel() + ", " + dirs[3] + ", " + dirs[4] + ", "
                    + dirs[5] + "]");
        }
        expected.sort(null);
        assertThat(sorted(session(parallelism).query(q22))).containsExactlyElementsOf(expected);
    }

    @Test
    void decimalSumsPerAuctionAndWindow_cancelledAfterACheckpoint_resumeAndAreWrittenOnce(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(2));
        sql.executeScript(DDL.replace("'speedup' = 'unlimited'", "'speedup' = '10'")
                + "CREATE TABLE euros (auction BIGINT, w TIMESTAMP(3), euros DECIMAL(38, 3)) WITH ('connector' = 'filesystem', 'path' = '" + out
                + "', 'format' = 'json');\n"
                + "SET 'execution.checkpointing.dir' = '" + dir.resolve("checkpoints") + "';\n"
                + "SET 'execution.checkpointing.interval' = '1h';");
        String insert = "INSERT INTO euros SELECT auction, window_start, SUM(0.908 * price) "
                + "FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end";
        JobHandle first = sql.submit(insert);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (first.metrics().sum("Sink(euros)", m -> m.recordsIn()) < 1 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(first.triggerCheckpoint().get()).isPositive();
        first.cancel();
        first.await();
        sql.execute("SET 'execution.checkpointing.interval' = '100ms'");
        JobResult second = sql.execute(insert).job();
        assertThat(second.metrics().sum("nexmark", m -> m.recordsOut())).isPositive().isLessThan(EVENTS);

        Map<List<Long>, BigDecimal> sums = new HashMap<>();
        for (NexmarkGenerator.Bid b : bids()) {
            long w = b.dateTime() - Math.floorMod(b.dateTime(), 10_000L);
            sums.merge(List.of(b.auction(), w), new BigDecimal("0.908").multiply(BigDecimal.valueOf(b.price())), BigDecimal::add);
        }
        List<String> expected = new ArrayList<>();
        sums.forEach((k, v) -> expected.add("{\"auction\":" + k.get(0) + ",\"w\":" + k.get(1) + ",\"euros\":" + v.toPlainString() + "}"));
        expected.sort(null);
        List<String> lines = new ArrayList<>();
        try (java.util.stream.Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        lines.sort(null);
        assertThat(lines).containsExactlyElementsOf(expected);
    }

    @Test
    void peopleAndAuctions_haveTheirColumns_andBidsReferToThem() {
        SqlSession sql = session(2);
        List<Row> people = sql.query("SELECT id, name, city, state, dateTime FROM person");
        List<Row> auctions = sql.query("SELECT id, seller, category, initialBid, reserve, dateTime, expires FROM auction");
        assertThat(people).hasSize((int) (EVENTS / 50));
        assertThat(auctions).hasSize((int) (EVENTS / 50 * 3));
        for (Row a : auctions) {
            assertThat(a.getLong(1)).isBetween(NexmarkGenerator.FIRST_PERSON_ID, NexmarkGenerator.FIRST_PERSON_ID + EVENTS / 50 + 10);
            assertThat(a.getLong(2)).isBetween(10L, 14L);
            assertThat(a.getLong(4)).isGreaterThanOrEqualTo(a.getLong(3));
            assertThat(a.getLong(6)).isGreaterThan(a.getLong(5));
        }
        List<Long> ids = people.stream().map(r -> r.getLong(0)).sorted().toList();
        assertThat(ids.get(0)).isEqualTo(1000L);
        assertThat(ids.get(ids.size() - 1)).isEqualTo(1000L + EVENTS / 50 - 1);
        List<Row> byType = sql.query("SELECT event_type, COUNT(*) FROM TABLE(TUMBLE(TABLE nexmark, DESCRIPTOR(dateTime), INTERVAL '1' HOUR)) "
                + "GROUP BY window_start, window_end, event_type");
        assertThat(sorted(byType)).containsExactly("+I[0, 800]", "+I[1, 2400]", "+I[2, 36800]");
    }

    @Test
    void aColumnOrFieldNotInTheSchema_failsNamingIt() {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults());
        assertThatThrownBy(() -> sql.executeScript("CREATE TABLE n (bid ROW<auction BIGINT, colour STRING>) WITH ('connector' = 'nexmark')"))
                .hasMessageContaining("bid has no field 'colour'; its fields are [auction, bidder, price, channel, url, dateTime, extra]");
        assertThatThrownBy(() -> sql.executeScript("CREATE TABLE n (bid ROW<price STRING>) WITH ('connector' = 'nexmark')"))
                .hasMessageContaining("field bid.price is BIGINT, not STRING");
        assertThatThrownBy(() -> sql.executeScript("CREATE TABLE n (kind INT) WITH ('connector' = 'nexmark')"))
                .hasMessageContaining("no column 'kind' in Nexmark events; the columns are event_type INT, person ROW<id BIGINT");
        assertThatThrownBy(() -> sql.executeScript("CREATE TABLE n (event_type INT) WITH ('connector' = 'nexmark', 'bid.proportion' = '-1')"))
                .hasMessageContaining("option 'bid.proportion' = '-1' is invalid: expected a whole number of at least 0");
        assertThatThrownBy(() -> sql.executeScript("CREATE TABLE n (event_type INT) WITH ('connector' = 'nexmark', 'first-event.rate' = '0')"))
                .hasMessageContaining("option 'first-event.rate' = '0' is invalid");
    }

    @Test
    void eventsArePureFunctionsOfTheirNumber_inThePublishedProportions() {
        NexmarkGenerator again = new NexmarkGenerator(GENERATOR.timestamp(0), RATE, 1, 3, 46);
        int[] kinds = new int[3];
        for (long n = 0; n < 5_000; n++) {
            int k = GENERATOR.eventType(n);
            kinds[k]++;
            Object a = k == 0 ? GENERATOR.person(n) : k == 1 ? GENERATOR.auction(n) : GENERATOR.bid(n);
            Object b = k == 0 ? again.person(n) : k == 1 ? again.auction(n) : again.bid(n);
            assertThat(a).isEqualTo(b);
            assertThat(GENERATOR.timestamp(n)).isEqualTo(GENERATOR.timestamp(0) + n); // 1000 events per second: 1 ms apart
        }
        assertThat(kinds).containsExactly(100, 300, 4_600);
        long hot = bids().stream().filter(b -> b.channel().equals("Google") || b.channel().equals("Apple")
                || b.channel().equals("Baidu") || b.channel().equals("Facebook")).count();
        assertThat((double) hot / bids().size()).isBetween(0.45, 0.55);
        assertThat(bids().stream().filter(b -> b.channel().startsWith("channel-")).allMatch(b -> b.url().contains("&channel_id="))).isTrue();
        List<NexmarkGenerator.Bid> bids = bids();
        for (int k = 0; k + 1 < 2_000; k++) { // each event draws from a stream of its own, not a shifted copy of its neighbour's
            assertThat(bids.get(k + 1).extra()).doesNotContain(bids.get(k).extra().substring(5, 25));
        }
        double extra = bids().stream().mapToInt(b -> b.extra().length()).average().orElseThrow();
        assertThat(extra).isBetween(60.0, 76.0); // pads a 32-byte bid to 100 bytes on average
    }
}
