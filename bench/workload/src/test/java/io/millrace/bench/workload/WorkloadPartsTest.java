package io.millrace.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WorkloadPartsTest {
    @Test
    void interleaveIsABijectionAndEachRangeAdvancesInStepsOfTheParallelism() {
        Interleave order = new Interleave(3_000, 3);
        Set<Long> seen = new HashSet<>();
        for (long s = 0; s < 3_000; s++) {
            seen.add(order.eventIndex(s));
        }
        assertThat(seen).hasSize(3_000).allMatch(i -> i >= 0 && i < 3_000);
        assertThat(order.eventIndex(1_000)).isEqualTo(1);
        assertThat(order.eventIndex(1_001)).isEqualTo(4);
        assertThatThrownBy(() -> new Interleave(1_001, 2)).hasMessageContaining("multiple of parallelism");
    }

    @Test
    void sensorReadingsAreLateByAtMostTheBoundAndCoverAllSensors() {
        Telemetry t = new Telemetry(Telemetry.Shape.SENSORS, 7, BenchOptions.BASE_TIME, 100_000);
        int late = 0;
        for (long i = 0; i < 50_000; i++) {
            Reading r = t.reading(i);
            assertThat(r.key()).isEqualTo(i % Telemetry.SENSORS);
            assertThat(t.nominalTime(i) - r.time()).isBetween(0L, Telemetry.Shape.SENSORS.maxDelayMs);
            late += r.time() < t.nominalTime(i) ? 1 : 0;
        }
        assertThat(late).isBetween(3_000, 7_000);
    }

    @Test
    void machinesOfTheIdleGroupSendNothing() {
        Telemetry t = new Telemetry(Telemetry.Shape.MACHINES, 7, BenchOptions.BASE_TIME, 1_000);
        Set<Long> machines = new HashSet<>();
        for (long i = 0; i < 120_000; i += 7) {
            Reading r = t.reading(i);
            long second = (t.nominalTime(i) - t.nominalTime(0)) / 1000;
            assertThat(r.key() % 3).isNotEqualTo(Telemetry.idleGroup(second));
            machines.add(r.key());
        }
        assertThat(machines).hasSize(Telemetry.MACHINES);
    }

    @Test
    void histogramQuantilesAreWithinThreePercent() {
        LatencyHistogram h = new LatencyHistogram();
        Random random = new Random(1);
        long[] values = new long[100_000];
        for (int k = 0; k < values.length; k++) {
            values[k] = (long) Math.exp(random.nextDouble() * 14);
            h.record(values[k]);
        }
        java.util.Arrays.sort(values);
        assertThat((double) h.quantile(0.99)).isCloseTo(values[98_999], org.assertj.core.data.Percentage.withPercentage(3));
        assertThat((double) h.quantile(0.5)).isCloseTo(values[49_999], org.assertj.core.data.Percentage.withPercentage(3));
        assertThat(new LatencyHistogram().quantile(0.99)).isEqualTo(-1);
    }

    @Test
    void optionsParseCountsWithSuffixes() {
        BenchOptions o = BenchOptions.parse("--query", "q5", "--events", "2.5M", "--parallelism", "3", "--backend", "rocksdb");
        assertThat(o.query).isEqualTo(Query.Q5);
        assertThat(o.events).isEqualTo(2_500_000);
        assertThat(o.warmup()).isEqualTo(624_999);
        assertThat(o.backend).isEqualTo("rocksdb");
        assertThatThrownBy(() -> BenchOptions.parse("--query", "q6")).hasMessageContaining("unknown query 'q6'");
    }

    @Test
    void warmupRun_takesCheckpointsAtLeastEvery200ms_andKeepsEverythingElse() {
        BenchOptions o = BenchOptions.parse("--query", "q8", "--events", "4M", "--parallelism", "3", "--checkpoint-interval-ms", "2000");
        BenchOptions w = o.forWarmup();
        assertThat(w.checkpointIntervalMs).isEqualTo(200);
        assertThat(w.query).isEqualTo(o.query);
        assertThat(w.parallelism).isEqualTo(3);
        assertThat(w.warmup()).isEqualTo(o.warmup());
        assertThat(BenchOptions.parse("--checkpoint-interval-ms", "0").forWarmup().checkpointIntervalMs).isZero();
        assertThat(BenchOptions.parse("--checkpoint-interval-ms", "50").forWarmup().checkpointIntervalMs).isEqualTo(50);
    }

    @Test
    void watermarkAlignment_isOneSecondByDefault_offAtZero_keptForTheWarmUp_andNeverNegative() {
        assertThat(BenchOptions.parse("--query", "q8").watermarkAlignmentMs).isEqualTo(1_000);
        assertThat(BenchOptions.parse("--watermark-alignment-ms", "0").watermarkAlignmentMs).isZero();
        assertThat(BenchOptions.parse("--watermark-alignment-ms", "250").forWarmup().watermarkAlignmentMs).isEqualTo(250);
        assertThatThrownBy(() -> BenchOptions.parse("--watermark-alignment-ms", "-1"))
                .hasMessageContaining("--watermark-alignment-ms must not be negative, was -1");
    }

    @Test
    void warmUpRuns_repeatUntilTheyHaveTakenTheWarmUpSeconds_atLeastOnce() throws Exception {
        assertThat(BenchOptions.parse("--query", "q0").warmupSeconds).isEqualTo(8.0);
        assertThat(BenchOptions.parse("--warmup-seconds", "2.5").warmupSeconds).isEqualTo(2.5);
        assertThat(BenchOptions.parse("--warmup-seconds", "2.5").forWarmup().warmupSeconds).isEqualTo(2.5);
        assertThat(BenchDriver.warmUp(1.0, n -> 0.3)).isEqualTo(4);
        assertThat(BenchDriver.warmUp(0.9, n -> 0.3)).as("0.3 * 3 is not quite 0.9 in doubles").isBetween(3, 4);
        assertThat(BenchDriver.warmUp(8, n -> 15.0)).isEqualTo(1);
        assertThat(BenchDriver.warmUp(0, n -> 0.1)).isEqualTo(1);
    }

    @Test
    void secondStep_choosesHowQ5AndQ7TakeTheBestOfAWindow_labelsOtherPlans_carriesIntoTheWarmup_andRefusesOtherValues() {
        assertThat(BenchOptions.parse("--query", "q7").bestOfWindow()).isEqualTo("all");
        assertThat(BenchOptions.parse("--query", "q7").queryLabel()).isEqualTo("q7");
        assertThat(BenchOptions.parse("--query", "q5").bestOfWindow()).isEqualTo("reduce");
        assertThat(BenchOptions.parse("--query", "q5").queryLabel()).isEqualTo("q5");
        BenchOptions o = BenchOptions.parse("--query", "q7", "--second-step", "reduce");
        assertThat(o.queryLabel()).isEqualTo("q7/reduce");
        assertThat(o.forWarmup().bestOfWindow()).isEqualTo("reduce");
        assertThat(BenchOptions.parse("--query", "q7", "--second-step", "process").queryLabel()).isEqualTo("q7/process");
        assertThat(BenchOptions.parse("--query", "q5", "--second-step", "reduce").queryLabel()).isEqualTo("q5");
        assertThat(BenchOptions.parse("--query", "q5", "--second-step", "process").queryLabel()).isEqualTo("q5/process");
        assertThat(BenchOptions.parse("--query", "q8", "--second-step", "reduce").queryLabel()).isEqualTo("q8");
        assertThat(BenchOptions.parse("--query", "q8", "--second-step", "reduce").bestOfWindow()).isNull();
        assertThatThrownBy(() -> BenchOptions.parse("--second-step", "merge")).hasMessageContaining("--second-step is process or reduce, not merge");
    }

    @Test
    void latencyRate_isHalfTheMeasuredRate_unlessTheLatencyRunTakesMoreEventsAndALongerRunIsSlower() throws Exception {
        BenchOptions o = BenchOptions.parse("--parallelism", "2", "--latency-seconds", "5");
        java.util.List<Long> asked = new java.util.ArrayList<>();
        // 6 s at 1 M events/s = 6 M events: fewer than the 20 M measured, so no longer run
        assertThat(BenchDriver.latencyRate(2_000_000, 20_000_000, o, n -> { asked.add(n); return 1.0; })).isEqualTo(1_000_000);
        assertThat(asked).isEmpty();
        // 6 s at 20 M events/s = 120 M events, 20 M measured: a run of 120 M at 25 M/s sustains less than 40 M/s
        assertThat(BenchDriver.latencyRate(40_000_000, 20_000_000, o, n -> { asked.add(n); return n / 25e6; }))
                .isCloseTo(12_500_000, org.assertj.core.data.Offset.offset(1.0));
        assertThat(asked).containsExactly(120_000_000L);
        // a longer run that is faster than the measured ones does not raise the rate
        assertThat(BenchDriver.latencyRate(40_000_000, 20_000_000, o, n -> n / 50e6)).isEqualTo(20_000_000);
        // a rate given is taken as it is
        BenchOptions given = BenchOptions.parse("--latency-rate", "3000000");
        assertThat(BenchDriver.latencyRate(40_000_000, 20_000_000, given, n -> { throw new AssertionError("no run"); })).isEqualTo(3_000_000);
        assertThat(BenchDriver.latencyEvents(1_000_001, o)).as("whole events per subtask").isEqualTo(6_000_006);
    }

    @Test
    void severalMeasuredRuns_reportTheMedian_andAnEvenCountTheSlowerMiddleRun() {
        assertThat(BenchOptions.parse("--query", "q0").runs).isEqualTo(1);
        assertThat(BenchOptions.parse("--runs", "3").runs).isEqualTo(3);
        assertThatThrownBy(() -> BenchOptions.parse("--runs", "0")).hasMessageContaining("--runs must be at least 1");
        assertThat(BenchDriver.median(new double[] {2.0})).isEqualTo(2.0);
        assertThat(BenchDriver.median(new double[] {9.0, 1.0, 4.0})).isEqualTo(4.0);
        assertThat(BenchDriver.median(new double[] {1.0, 4.0, 2.0, 3.0})).isEqualTo(3.0);
        double[] given = {5.0, 1.0, 3.0};
        BenchDriver.median(given);
        assertThat(given).containsExactly(5.0, 1.0, 3.0);
    }

    /**
     * The joins' inputs make both outcomes of each join condition frequent: bids after their auction's expiry (IJOIN
     * leaves them out), and bids that meet a revised version of their auction's terms, on both sides of its reserve
     * (TJOIN). A revision always comes after the opening it revises.
     */
    @Test
    void joinInputsExerciseBothSidesOfEachJoinCondition() {
        for (long rate : new long[] {1_000, 100_000}) {
            Input input = new Input(Query.IJOIN, 40_000, 2, 42, rate);
            long bids = 0;
            Map<Long, Auction> auctions = new HashMap<>();
            for (long s = 0; s < input.count(); s++) {
                Object e = input.record(s);
                if (e instanceof Bid) {
                    bids++;
                } else if (e instanceof Auction a) {
                    auctions.put(a.id(), a);
                }
            }
            for (Auction a : auctions.values()) {
                AuctionTerms r = AuctionTerms.revision(a);
                if (r != null) {
                    assertThat(r.validFrom()).as("revision of %d", r.auction()).isGreaterThan(auctions.get(r.auction()).dateTime());
                }
            }
            int open = Recompute.expected(Query.IJOIN, input).size();
            assertThat((long) open).as("bids while open, rate %d", rate).isBetween(bids / 2, bids * 95 / 100);

            List<String> met = Recompute.expected(Query.TJOIN, input);
            assertThat((long) met.size()).as("bids at or above the reserve, rate %d", rate).isBetween(bids / 10, bids * 9 / 10);
            Pattern row = Pattern.compile("BidTerms\\[auction=(\\d+), bidder=\\d+, price=\\d+, reserve=(\\d+), .*");
            long revised = met.stream().filter(t -> {
                Matcher m = row.matcher(t);
                assertThat(m.matches()).as(t).isTrue();
                return Long.parseLong(m.group(2)) != auctions.get(Long.parseLong(m.group(1))).reserve();
            }).count();
            assertThat(revised).as("results from revised terms, rate %d", rate).isBetween(met.size() / 20L, met.size() * 19L / 20);
        }
    }
}
