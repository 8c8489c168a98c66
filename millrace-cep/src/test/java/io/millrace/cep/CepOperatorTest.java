package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.rocksdb.RocksDbStateBackends;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.testing.Emitted;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.OneInputOperatorHarness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pattern operator in the harness (restored after every input): time-outs with what matched so far, state that
 * is gone once {@code within} has passed (on both backends), late events, processing time, and errors.
 */
class CepOperatorTest {
    static final OutputTag<String> TIMED_OUT = new OutputTag<>("timed-out");
    static final OutputTag<SensorReading> LATE = new OutputTag<>("late");

    @TempDir
    Path rocksDbDirectory;

    /** The seed's pattern: a temperature spike, then a pressure drop, within 30 s. */
    static final Pattern<SensorReading> SPIKE_THEN_DROP = Pattern.<SensorReading>begin("spike")
            .where(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 85)
            .followedBy("drop").where(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4)
            .within(Duration.ofSeconds(30));

    static final class Alerts extends PatternProcessFunction<SensorReading, String> implements TimedOutPartialMatchHandler<SensorReading> {
        @Override
        public void processMatch(Map<String, List<SensorReading>> match, Context ctx, io.millrace.api.functions.Collector<String> out) {
            out.collect(ctx.currentKey() + " spike " + match.get("spike").get(0).eventTime() + " drop " + match.get("drop").get(0).eventTime());
        }

        @Override
        public void processTimedOutMatch(Map<String, List<SensorReading>> partial, Context ctx) {
            ctx.output(TIMED_OUT, ctx.currentKey() + " spike " + partial.get("spike").get(0).eventTime() + " not followed by a drop by " + ctx.timestamp());
        }
    }

    static SensorReading temp(String machine, double value, long time) {
        return new SensorReading(machine, Sensor.TEMPERATURE, value, time, time);
    }

    static SensorReading pressure(String machine, double value, long time) {
        return new SensorReading(machine, Sensor.PRESSURE, value, time, time);
    }

    private OneInputOperatorHarness<SensorReading, String> harness(Pattern<SensorReading> pattern, boolean processingTime, boolean rocksDb)
            throws Exception {
        Nfa<SensorReading> nfa = NfaCompiler.compile(pattern);
        HarnessSetup<OneInputOperatorHarness<SensorReading, String>> setup = OneInputOperatorHarness
                .<SensorReading, String>of(() -> new CepOperator<>(nfa, new Alerts(), processingTime, LATE))
                .keyedBy((SensorReading r) -> r.machineId());
        if (rocksDb) {
            setup = setup.backend(RocksDbStateBackends.factory(
                    RocksDbConfig.defaults().withBaseDirectory(rocksDbDirectory).withManagedMemoryBytes(32L << 20)));
        }
        return setup.open();
    }

    @Test
    void spikeThenDropWithin30s_isAMatch_andASpikeWithoutDrop_timesOutWithWhatItMatched() throws Exception {
        try (var h = harness(SPIKE_THEN_DROP, false, false)) {
            h.processElement(temp("press-1", 90, 1_000), 1_000);
            h.processElement(pressure("press-1", 3.5, 12_000), 12_000);
            h.processElement(temp("press-2", 91, 5_000), 5_000);
            h.processElement(pressure("press-2", 3.2, 36_000), 36_000);     // 31 s after the spike: too late
            h.processWatermark(40_000);

            assertThat(h.output()).containsExactly(new Emitted<>("press-1 spike 1000 drop 12000", 12_000));
            assertThat(h.sideOutput(TIMED_OUT)).containsExactly(new Emitted<>("press-2 spike 5000 not followed by a drop by 35000", 35_000));
            assertThat(h.restores()).isEqualTo(5);
        }
    }

    @Test
    void afterWithinHasPassed_noStateAndNoTimerIsLeft_onTheHeap() throws Exception {
        stateIsGoneAfterWithin(false);
    }

    @Test
    void afterWithinHasPassed_noStateAndNoTimerIsLeft_onRocksDb() throws Exception {
        stateIsGoneAfterWithin(true);
    }

    private void stateIsGoneAfterWithin(boolean rocksDb) throws Exception {
        Pattern<SensorReading> anyDrops = Pattern.<SensorReading>begin("spike")
                .where(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 85)
                .followedByAny("drop").where(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4).oneOrMore()
                .within(Duration.ofSeconds(30));
        try (var h = harness(anyDrops, false, rocksDb)) {
            for (int i = 0; i < 20; i++) {
                h.processElement(temp("m" + (i % 3), 90 + i, 1_000L * i), 1_000L * i);
                h.processElement(pressure("m" + (i % 3), 3, 1_000L * i + 500), 1_000L * i + 500);
            }
            h.processWatermark(25_000);
            assertThat(h.keyedBackend().entryCount()).as("entries while partial matches are open").isPositive();
            assertThat(h.output()).isNotEmpty();

            h.processWatermark(19_000 + 30_000);              // the last spike's within has passed

            assertThat(h.keyedBackend().entryCount()).as("state entries after within passed").isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void eventsOutOfOrder_areMatchedInTimeOrder_andLateOnesGoToTheSideOutput() throws Exception {
        Nfa<SensorReading> nfa = NfaCompiler.compile(SPIKE_THEN_DROP);
        try (var h = OneInputOperatorHarness.<SensorReading, String>of(() -> new CepOperator<>(nfa, new Alerts(), false, LATE))
                .keyedBy((SensorReading r) -> r.machineId()).open()) {
            h.processElement(pressure("press-1", 3.5, 12_000), 12_000);   // the drop arrives before the spike
            h.processElement(temp("press-1", 90, 1_000), 1_000);
            h.processWatermark(15_000);
            h.processElement(temp("press-1", 95, 14_000), 14_000);       // behind the watermark: late

            assertThat(h.extractOutputValues()).containsExactly("press-1 spike 1000 drop 12000");
            assertThat(h.sideOutputValues(LATE)).containsExactly(temp("press-1", 95, 14_000));
            assertThat(h.metrics().lateRecordsDiverted).isEqualTo(1);
        }
    }

    @Test
    void inProcessingTime_recordsMatchOnArrival_andWithinIsMeasuredOnTheClock() throws Exception {
        try (var h = harness(SPIKE_THEN_DROP, true, false)) {
            h.setProcessingTime(1_000);
            h.processElement(pressure("press-1", 3.5, 0));               // before any spike: nothing
            h.processElement(temp("press-1", 90, 0));
            h.setProcessingTime(20_000);
            h.processElement(pressure("press-1", 3.0, 0));
            h.processElement(temp("press-1", 92, 0));
            h.setProcessingTime(50_000);                                  // the second spike's within ends at 50 000

            assertThat(h.output()).containsExactly(new Emitted<>("press-1 spike 0 drop 0", 20_000));
            assertThat(h.sideOutput(TIMED_OUT)).containsExactly(new Emitted<>("press-1 spike 0 not followed by a drop by 50000", 50_000));
            assertThat(h.keyedBackend().entryCount()).isZero();
        }
    }

    @Test
    void aConditionThatThrowsWhenTheWatermarkReleasesARecord_failsNamingTheOperatorTheTimeAndTheKey() throws Exception {
        Pattern<SensorReading> broken = Pattern.<SensorReading>begin("spike").next("drop").where(r -> {
            throw new IllegalStateException("no limit for " + r.machineId());
        });
        try (var h = harness(broken, false, false)) {
            h.processElement(temp("press-1", 90, 1_000), 1_000);
            h.processElement(temp("press-1", 91, 1_500), 1_500);
            assertThatThrownBy(() -> h.processWatermark(2_000))
                    .hasMessageContaining("operator 'operator'").hasMessageContaining("timer 1000 of key press-1")
                    .hasRootCauseMessage("no limit for press-1");
        }
    }

    @Test
    void aConditionThatThrowsOnArrival_failsNamingTheOperatorAndTheRecord() throws Exception {
        Pattern<SensorReading> broken = Pattern.<SensorReading>begin("spike").where(r -> {
            throw new IllegalStateException("no limit for " + r.machineId());
        });
        try (var h = harness(broken, false, false)) {
            assertThatThrownBy(() -> h.processElement(temp("press-1", 90, 1_000), 1_000))
                    .hasMessageContaining("operator 'operator'").hasMessageContaining("failed on record SensorReading[machineId=press-1")
                    .hasRootCauseMessage("no limit for press-1");
        }
    }

    @Test
    void recordsNoConditionAccepts_leaveNoState_withRelaxedContiguity() throws Exception {
        try (var h = harness(SPIKE_THEN_DROP, false, false)) {
            for (int i = 0; i < 50; i++) {
                h.processElement(temp("press-1", 65, 1_000L * i), 1_000L * i);          // normal readings: neither spike nor drop
            }
            assertThat(h.keyedBackend().entryCount()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            h.processElement(temp("press-1", 95, 60_000), 60_000);
            h.processElement(pressure("press-1", 3, 61_000), 61_000);
            h.processWatermark(70_000);
            assertThat(h.extractOutputValues()).containsExactly("press-1 spike 60000 drop 61000");
        }
    }

    @Test
    void patternsTheEngineCannotRun_failWhenCompiled_namingTheProblem() {
        assertThatThrownBy(() -> NfaCompiler.compile(Pattern.<String>begin("a").notFollowedBy("b").where(s -> s.isEmpty())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot end a pattern");
        assertThatThrownBy(() -> NfaCompiler.compile(Pattern.<String>begin("a", AfterMatchSkipStrategy.skipToLast("x")).next("b")))
                .hasMessageContaining("'x' is not a variable of the pattern [a, b]");
        assertThatThrownBy(() -> Pattern.<String>begin("a").next("a")).hasMessageContaining("'a' is used twice");
        assertThatThrownBy(() -> Pattern.<String>begin("a").greedy()).hasMessageContaining("greedy() on 'a'");
        assertThatThrownBy(() -> Pattern.<String>begin("a").notNext("b").optional()).hasMessageContaining("take no quantifier");
        assertThatThrownBy(() -> Pattern.<String>begin("a").times(2).until(s -> true)).hasMessageContaining("until() on 'a'");
    }
}
