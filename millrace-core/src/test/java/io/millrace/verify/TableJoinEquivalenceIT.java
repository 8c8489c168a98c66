package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.JoinFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.table.ChangelogJoin;
import io.millrace.api.table.ChangelogJoins;
import io.millrace.api.table.RejectedChange;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.time.WatermarkStrategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The temporal join and the changelog join through the local runtime under random disorder, parallelism (1–4 per
 * operator), batch sizes and channel capacities, compared with a batch recomputation: for the temporal join the
 * version valid at each row's time looked up in the whole changelog, for the changelog join the join of the two
 * tables the input changelogs end with, against the table the output changelog describes.
 */
public class TableJoinEquivalenceIT {
    private static final long SEED = 0x7E5_0000L;
    static final RowType CONFIG = RowType.builder().field("machine", FieldType.BIGINT).field("id", FieldType.BIGINT)
            .field("rpm", FieldType.BIGINT).build();
    static final OutputTag<Event> LATE = new OutputTag<>("late-readings");

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    /** The change an event of the table's input stands for: mostly a new version, now and then a delete. */
    static Row change(Event e) {
        return Row.ofKind(e.value() % 7 == 0 ? RowKind.DELETE : RowKind.UPDATE_AFTER, CONFIG, (long) e.key(), (long) e.id(), e.value());
    }

    /** The events of a key at a timestamp no earlier event of that key has: their order of arrival does not matter. */
    static Set<Integer> uniquePerKeyAndTime(List<Event> events) {
        Set<Long> seen = new HashSet<>();
        Set<Integer> ids = new HashSet<>();
        for (Event e : events) {
            if (seen.add(e.key() * 1_000_000_000L + e.ts())) {
                ids.add(e.id());
            }
        }
        return ids;
    }

    /** "readingId>versionId@ts" (or ">none") per reading, from the version valid at the reading's time. */
    static List<String> batchTemporalJoin(List<Event> readings, List<Event> changes, Set<Integer> used, boolean outer) {
        Map<Integer, List<Event>> byKey = new HashMap<>();
        for (Event c : changes) {
            if (used.contains(c.id())) {
                byKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c);
            }
        }
        List<String> out = new ArrayList<>();
        for (Event r : readings) {
            Event best = null;
            for (Event c : byKey.getOrDefault(r.key(), List.of())) {
                if (c.ts() <= r.ts() && (best == null || c.ts() > best.ts())) {
                    best = c;
                }
            }
            Row version = best == null ? null : change(best);
            if (version != null && version.kind().isRetraction()) {
                version = null;
            }
            if (version != null || outer) {
                out.add(r.id() + ">" + (version == null ? "none" : version.getLong("id")) + "@" + r.ts());
            }
        }
        return out;
    }

    static final JoinFunction<Event, Row, String> DESCRIBE = (r, v) -> r.id() + ">" + (v == null ? "none" : v.getLong("id"));

    @Test
    void temporalJoin_underDisorderWithinTheBound_equalsTheBatchLookup() {
        for (int round = 0; round < 10; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            boolean outer = random.nextBoolean();
            int keys = 1 + random.nextInt(20);
            long bound = 1 + random.nextInt(80);
            DisorderedInput readings = DisorderedInput.generate(random, 200 + random.nextInt(1_500), keys, bound, 0);
            DisorderedInput changes = DisorderedInput.generate(random, 50 + random.nextInt(500), keys, bound, 0);
            Set<Integer> used = uniquePerKeyAndTime(changes.events);

            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            Pipeline p = runtime.pipeline();
            TemporalJoin<Integer, Event> join = TemporalJoin.of(
                    readings.source(p, runtime.parallelism("readings"), runtime.maxPoll()).keyBy(Event::key),
                    changes.source(p, runtime.parallelism("changes"), runtime.maxPoll()).filter(e -> used.contains(e.id()))
                            .map(TableJoinEquivalenceIT::change).keyBy(r -> (int) r.getLong("machine")))
                    .sideOutputLateProbes(LATE);
            DataStream<String> joined = (outer ? join.leftOuter(DESCRIBE) : join.inner(DESCRIBE)).parallelism(runtime.parallelism("join"));
            CollectSink<String> sink = new CollectSink<>();
            joined.process(new JoinEquivalenceIT.WithTimestamp()).parallelism(runtime.parallelism("stamp")).sinkTo(sink);
            CollectSink<Event> late = new CollectSink<>();
            joined.getSideOutput(LATE).sinkTo(late);
            CollectSink<RejectedChange> rejected = new CollectSink<>();
            joined.getSideOutput(TemporalJoin.REJECTED).sinkTo(rejected);
            p.execute("temporal join equivalence");
            String where = "seed " + seed + " (round " + round + ", " + (outer ? "left outer" : "inner") + ") [" + runtime + " readings="
                    + readings.events.size() + " changes=" + used.size() + " bound=" + bound + "]";

            assertThat(late.results()).as(where).isEmpty();
            List<String> expected = batchTemporalJoin(readings.events, changes.events, used, outer);
            assertThat(expected).as(where + ": rows that found a version").anyMatch(s -> !s.contains(">none"));
            JoinEquivalenceIT.assertSamePairs(sink.results(), expected, where);
            long retractionsOfNothing = rejected.results().stream().filter(r -> r.reason().contains("had no version")).count();
            assertThat(rejected.results()).as(where + ": only retractions of keys without a version are rejected").hasSize((int) retractionsOfNothing);
        }
    }

    @Test
    void changelogJoin_ofAllFourKinds_underRandomParallelism_describesTheBatchJoinOfTheFinalTables() {
        for (int round = 0; round < 12; round++) {
            long seed = SEED + 100 + round;
            Random random = new Random(seed);
            int kind = round % 4;
            int ids = 5 + random.nextInt(60);
            int keys = 1 + random.nextInt(15);
            Map<String, Row> leftTable = ChangelogJoins.table();
            Map<String, Row> rightTable = ChangelogJoins.table();
            List<Row> lefts = ChangelogJoins.randomChangelog(random, "L", 200 + random.nextInt(1_500), ids, keys, leftTable);
            List<Row> rights = ChangelogJoins.randomChangelog(random, "R", 200 + random.nextInt(1_500), ids, keys, rightTable);

            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            Pipeline p = runtime.pipeline();
            int poll = 1 + random.nextInt(64);
            // One source subtask per side, so that the changes of each primary key arrive in their order.
            ChangelogJoin<Long> join = ChangelogJoin.of(
                    p.fromSource(new ListSource<>(lefts, r -> 0L, poll), WatermarkStrategy.noWatermarks(), "left").parallelism(1)
                            .keyBy(r -> r.getLong("k")),
                    p.fromSource(new ListSource<>(rights, r -> 0L, poll), WatermarkStrategy.noWatermarks(), "right").parallelism(1)
                            .keyBy(r -> r.getLong("k")));
            DataStream<Row> joined = switch (kind) {
                case 0 -> join.inner(ChangelogJoins.JOIN);
                case 1 -> join.leftOuter(ChangelogJoins.JOIN);
                case 2 -> join.rightOuter(ChangelogJoins.JOIN);
                default -> join.fullOuter(ChangelogJoins.JOIN);
            };
            int parallelism = runtime.parallelism("join");
            CollectSink<Row> sink = new CollectSink<>();
            joined.parallelism(parallelism).sinkTo(sink).parallelism(parallelism);
            CollectSink<RejectedChange> rejected = new CollectSink<>();
            joined.getSideOutput(ChangelogJoin.REJECTED).sinkTo(rejected);
            p.execute("changelog join equivalence");
            String where = "seed " + seed + " (round " + round + ", kind " + kind + ") [" + runtime + " left=" + lefts.size() + " right="
                    + rights.size() + "]";

            assertThat(rejected.results()).as(where).isEmpty();
            assertThat(sink.results()).as(where + ": retractions emitted").anyMatch(r -> r.kind() == RowKind.DELETE);
            assertThat(ChangelogJoins.apply(sink.results())).as(where)
                    .isEqualTo(ChangelogJoins.batchJoin(leftTable, rightTable, kind == 1 || kind == 3, kind == 2 || kind == 3));
        }
    }
}
