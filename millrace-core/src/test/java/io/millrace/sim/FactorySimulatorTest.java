package io.millrace.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.ReaderDriver;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FactorySimulatorTest {
    private static final long START = SimulatorConfig.DEFAULT_START;
    private final ManualClock clock = new ManualClock(0);

    private static SimulatorConfig.Builder fast() {
        return SimulatorConfig.builder().unlimitedSpeed();
    }

    private RecordingOutput<FactoryEvent> readAll(FactorySimulator sim, List<MachineGroupSplit> splits) throws Exception {
        SourceReader<FactoryEvent, MachineGroupSplit> reader = sim.createReader(TestReaderContext.single(clock));
        reader.addSplits(splits);
        reader.noMoreSplits();
        RecordingOutput<FactoryEvent> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 100_000);
        return out;
    }

    @Test
    void sameSeedAndOptionsGiveTheSameEventsPerSplitAndAnotherSeedDoesNot() throws Exception {
        SimulatorConfig config = fast().machines(6).eventsPerSecond(200).duration(Duration.ofMinutes(10)).seed(5).build();
        FactorySimulator a = new FactorySimulator(config);
        FactorySimulator b = new FactorySimulator(config);
        List<MachineGroupSplit> splits = a.createSplits(2);

        for (MachineGroupSplit split : splits) {
            List<FactoryEvent> first = readAll(a, List.of(split)).values;
            assertThat(first).hasSizeGreaterThan(10_000);
            assertThat(readAll(b, List.of(split)).values).isEqualTo(first);
        }
        FactorySimulator other = new FactorySimulator(fast().machines(6).eventsPerSecond(200)
                .duration(Duration.ofMinutes(10)).seed(6).build());
        assertThat(readAll(other, other.createSplits(2).subList(0, 1)).values)
                .isNotEqualTo(readAll(a, splits.subList(0, 1)).values);
    }

    @Test
    void whenBoundedByCount_thenEachSplitEmitsItsShareAndEnds() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(7).eventsPerSecond(100).maxEvents(10_001).build());
        List<MachineGroupSplit> splits = sim.createSplits(3);

        assertThat(splits).extracting(MachineGroupSplit::machineCount).containsExactly(2, 2, 3);
        assertThat(splits).extracting(MachineGroupSplit::splitId)
                .containsExactly("machines-M001-M002", "machines-M003-M004", "machines-M005-M007");
        assertThat(splits.stream().mapToLong(MachineGroupSplit::quota).sum()).isEqualTo(10_001);
        RecordingOutput<FactoryEvent> out = readAll(sim, splits);
        for (MachineGroupSplit split : splits) {
            List<FactoryEvent> events = out.valuesOf(split.splitId());
            assertThat(events).hasSize((int) split.quota());
            int firstMachine = split.firstMachine();
            assertThat(events).extracting(FactoryEvent::machineId).allMatch(id -> {
                int m = Integer.parseInt(id.substring(1)) - 1;
                return m >= firstMachine && m < firstMachine + split.machineCount();
            });
        }
        assertThat(out.released).containsExactlyInAnyOrderElementsOf(splits.stream().map(MachineGroupSplit::splitId).toList());
        assertThat(out.timestamps).isEqualTo(out.values.stream().map(FactoryEvent::eventTime).toList());
    }

    @Test
    void eventTimeFollowsFromSlotsAndRateNotFromTheClock() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(2).eventsPerSecond(10).maxOutOfOrderness(Duration.ZERO)
                .lateFraction(0).dropoutProbability(0).duration(Duration.ofMinutes(20)).build());
        clock.set(999_999);
        List<FactoryEvent> events = readAll(sim, sim.createSplits(1)).values;

        assertThat(events).extracting(FactoryEvent::eventTime).isSorted().allMatch(t -> t >= START && t < START + 1_200_000);
        for (FactoryEvent e : events) {
            long global = e.seq() * 2 + Integer.parseInt(e.machineId().substring(1)) - 1;
            assertThat(e.eventTime()).isEqualTo(START + global * 100);
        }
    }

    @Test
    void outOfOrdernessStaysWithinTheConfiguredBound() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(10).eventsPerSecond(1_000)
                .maxOutOfOrderness(Duration.ofSeconds(2)).lateFraction(0).duration(Duration.ofMinutes(5)).build());
        RecordingOutput<FactoryEvent> out = readAll(sim, sim.createSplits(2));

        for (String split : List.of("machines-M001-M005", "machines-M006-M010")) {
            long maxSeen = Long.MIN_VALUE;
            long worst = 0;
            for (FactoryEvent e : out.valuesOf(split)) {
                if (maxSeen != Long.MIN_VALUE) {
                    worst = Math.max(worst, maxSeen - e.eventTime());
                }
                maxSeen = Math.max(maxSeen, e.eventTime());
            }
            assertThat(worst).isBetween(1_500L, 2_000L);
        }
    }

    @Test
    void lateEventsAppearInRoughlyTheConfiguredFraction() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(10).eventsPerSecond(1_000)
                .maxOutOfOrderness(Duration.ofSeconds(1)).lateFraction(0.05).lateDelay(Duration.ofSeconds(4))
                .duration(Duration.ofMinutes(5)).build());
        List<FactoryEvent> events = readAll(sim, sim.createSplits(1)).values;

        long maxSeen = Long.MIN_VALUE;
        int late = 0;
        for (FactoryEvent e : events) {
            if (e.eventTime() < maxSeen - 1_000) {
                late++;
            }
            maxSeen = Math.max(maxSeen, e.eventTime());
        }
        assertThat((double) late / events.size()).isBetween(0.04, 0.06);
    }

    @Test
    void injectedAnomaliesShowInTheStreamExactlyAtTheGroundTruthTimes() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(4).eventsPerSecond(40).anomalyProbability(0.8)
                .runCycle(Duration.ofMinutes(2)).duration(Duration.ofHours(1)).seed(11).build());
        List<Anomaly> truth = sim.anomalies();
        List<FactoryEvent> events = readAll(sim, sim.createSplits(2)).values;

        assertThat(truth).hasSizeGreaterThan(20);
        assertThat(truth).extracting(Anomaly::machineId).contains("M001", "M002", "M003", "M004");
        List<SensorReading> hot = new ArrayList<>();
        List<SensorReading> low = new ArrayList<>();
        for (FactoryEvent e : events) {
            if (e instanceof SensorReading r && r.sensor() == Sensor.TEMPERATURE && r.value() > 80) {
                hot.add(r);
            } else if (e instanceof SensorReading r && r.sensor() == Sensor.PRESSURE && r.value() < 4.5) {
                low.add(r);
            } else if (e instanceof SensorReading r) {
                assertThat(r.value()).isBetween(r.sensor() == Sensor.VIBRATION ? 1.9 : 5.6, r.sensor() == Sensor.TEMPERATURE ? 70.6 : 6.5);
            }
        }
        List<Anomaly> all = sim.anomalies(START - Duration.ofHours(1).toMillis(), START + Duration.ofHours(3).toMillis());
        assertThat(hot).allMatch(r -> all.stream().anyMatch(a -> a.machineId().equals(r.machineId())
                && r.eventTime() >= a.spikeStart() && r.eventTime() < a.spikeEnd()));
        assertThat(low).allMatch(r -> all.stream().anyMatch(a -> a.machineId().equals(r.machineId())
                && r.eventTime() >= a.dropStart() && r.eventTime() < a.dropEnd()));
        for (Anomaly a : truth) {
            assertThat(a.dropStart() - a.spikeStart()).isBetween(5_000L, 20_000L);
            assertThat(hot).as("spike of %s", a).anyMatch(r -> r.machineId().equals(a.machineId())
                    && r.eventTime() >= a.spikeStart() && r.eventTime() < a.spikeEnd());
            assertThat(low).as("drop of %s", a).anyMatch(r -> r.machineId().equals(a.machineId())
                    && r.eventTime() >= a.dropStart() && r.eventTime() < a.dropEnd());
        }
    }

    @Test
    void anAnomalyInProgressAtTheStart_isListedByTheRangeButNotByAnomalies() throws Exception {
        // on this seed machine M006's first run cycle has its spike starting before the start time
        FactorySimulator sim = new FactorySimulator(fast().machines(8).eventsPerSecond(333).duration(Duration.ofMinutes(5)).seed(6).build());
        List<Anomaly> range = sim.anomalies(Long.MIN_VALUE, Long.MAX_VALUE);
        List<Anomaly> early = range.stream().filter(a -> a.spikeStart() < START).toList();

        assertThat(early).hasSize(1);
        Anomaly a = early.get(0);
        assertThat(a.spikeStart()).isGreaterThanOrEqualTo(START - FactorySimulator.ANOMALY_SPAN.toMillis());
        assertThat(sim.anomalies()).doesNotContain(a);
        List<FactoryEvent> events = readAll(sim, sim.createSplits(1)).values;
        assertThat(events).anyMatch(e -> e instanceof SensorReading r && r.machineId().equals(a.machineId())
                && r.sensor() == Sensor.TEMPERATURE && r.value() > 80 && r.eventTime() >= START && r.eventTime() < a.spikeEnd());
        assertThat(events).noneMatch(e -> e.eventTime() < START);
    }

    @Test
    void spindleEventsAlternateAndAStoppedMachineReportsNothingElse() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(3).eventsPerSecond(30).maxOutOfOrderness(Duration.ZERO)
                .lateFraction(0).runCycle(Duration.ofMinutes(2)).duration(Duration.ofHours(1)).build());
        List<FactoryEvent> events = readAll(sim, sim.createSplits(1)).values;

        Map<String, SpindleState> state = new HashMap<>();
        int starts = 0;
        for (FactoryEvent e : events) {
            if (e instanceof SpindleEvent s) {
                assertThat(s.state()).isNotEqualTo(state.get(s.machineId()));
                state.put(s.machineId(), s.state());
                starts += s.state() == SpindleState.RUNNING ? 1 : 0;
            } else {
                assertThat(state.get(e.machineId())).isEqualTo(SpindleState.RUNNING);
            }
        }
        assertThat(starts).isBetween(3 * 28, 3 * 31);
    }

    @Test
    void dropOutsSilenceARunningMachineForUpToTheMaxLength() throws Exception {
        FactorySimulator sim = new FactorySimulator(fast().machines(1).eventsPerSecond(10).maxOutOfOrderness(Duration.ZERO)
                .lateFraction(0).dropoutProbability(1).dropoutMaxLength(Duration.ofSeconds(40))
                .runCycle(Duration.ofMinutes(2)).duration(Duration.ofMinutes(30)).build());
        List<FactoryEvent> events = readAll(sim, sim.createSplits(1)).values;

        int silences = 0;
        for (int i = 1; i < events.size(); i++) {
            FactoryEvent e = events.get(i);
            long gap = e.eventTime() - events.get(i - 1).eventTime();
            if (e instanceof SensorReading && events.get(i - 1) instanceof SensorReading && gap > 100) {
                assertThat(gap).isBetween(20_000L, 40_100L);
                silences++;
            }
        }
        assertThat(silences).isBetween(14, 16);
    }

    @Test
    void whenRestoredFromSnapshotsAtRandomPoints_thenEventsEqualAnUninterruptedRun() throws Exception {
        assertReplayable(new FactorySimulator(fast().machines(5).eventsPerSecond(300).maxOutOfOrderness(Duration.ofSeconds(3))
                .lateFraction(0.02).lateDelay(Duration.ofSeconds(8)).duration(Duration.ofMinutes(3)).build()));
    }

    @Test
    void whenDelaysAreLong_thenOrderAndReplayHoldAsWell() throws Exception {
        // delays beyond the emission wheel's span take the heap
        FactorySimulator sim = new FactorySimulator(fast().machines(3).eventsPerSecond(20)
                .maxOutOfOrderness(Duration.ofSeconds(150)).lateFraction(0.01).lateDelay(Duration.ofSeconds(60))
                .duration(Duration.ofMinutes(20)).build());
        List<FactoryEvent> events = readAll(sim, sim.createSplits(1)).values;
        long maxSeen = Long.MIN_VALUE;
        long worst = 0;
        for (FactoryEvent e : events) {
            worst = maxSeen == Long.MIN_VALUE ? 0 : Math.max(worst, maxSeen - e.eventTime());
            maxSeen = Math.max(maxSeen, e.eventTime());
        }
        assertThat(worst).isBetween(150_000L, 210_000L);
        assertReplayable(sim);
    }

    private void assertReplayable(FactorySimulator sim) throws Exception {
        List<MachineGroupSplit> initial = sim.createSplits(2);
        RecordingOutput<FactoryEvent> expected = readAll(sim, initial);
        Random random = new Random(23);
        for (int round = 0; round < 5; round++) {
            List<MachineGroupSplit> state = initial;
            List<FactoryEvent> values = new ArrayList<>();
            List<String> splitIds = new ArrayList<>();
            boolean ended = false;
            while (!ended) {
                SourceReader<FactoryEvent, MachineGroupSplit> reader = sim.createReader(TestReaderContext.single(clock));
                reader.addSplits(state);
                reader.noMoreSplits();
                RecordingOutput<FactoryEvent> out = new RecordingOutput<>();
                int polls = 1 + random.nextInt(40);
                for (int i = 0; i < polls && !ended; i++) {
                    ended = reader.pollNext(out) == InputStatus.END_OF_INPUT;
                }
                state = reader.snapshotState();
                values.addAll(out.values);
                splitIds.addAll(out.splitIds);
            }
            assertThat(values).hasSameSizeAs(expected.values);
            for (MachineGroupSplit split : initial) {
                assertThat(filter(values, splitIds, split.splitId())).isEqualTo(expected.valuesOf(split.splitId()));
            }
        }
    }

    private static List<FactoryEvent> filter(List<FactoryEvent> values, List<String> splitIds, String splitId) {
        List<FactoryEvent> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (splitId.equals(splitIds.get(i))) {
                out.add(values.get(i));
            }
        }
        return out;
    }

    @Test
    void whenPacedByTheClock_thenEventsComeWhenTheirSimulatedTimeHasPassed() throws Exception {
        SimulatorConfig.Builder options = SimulatorConfig.builder().machines(2).eventsPerSecond(100)
                .maxOutOfOrderness(Duration.ofMillis(500)).seed(3);
        FactorySimulator sim = new FactorySimulator(options.speedup(10).build());
        FactorySimulator unpaced = new FactorySimulator(options.unlimitedSpeed().duration(Duration.ofSeconds(20)).build());
        List<FactoryEvent> reference = readAll(unpaced, unpaced.createSplits(1)).values;
        assertThat(sim.boundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        SourceReader<FactoryEvent, MachineGroupSplit> reader = sim.createReader(TestReaderContext.single(clock));
        reader.addSplits(sim.createSplits(1));
        RecordingOutput<FactoryEvent> out = new RecordingOutput<>();
        reader.pollNext(out); // the first poll anchors simulated time to the clock

        for (int step = 1; step <= 20; step++) {
            clock.advance(Duration.ofMillis(50));
            InputStatus status;
            int polls = 0;
            do {
                status = reader.pollNext(out);
            } while (status == InputStatus.MORE_AVAILABLE && ++polls < 1_000);
            assertThat(status).isEqualTo(InputStatus.NOTHING_AVAILABLE);
            long simulatedNow = START + step * 50L * 10;
            assertThat(out.values).allMatch(e -> e.eventTime() <= simulatedNow);
            assertThat(out.values).isEqualTo(reference.subList(0, out.values.size()));
            long due = reference.stream().filter(e -> e.eventTime() <= simulatedNow - 500).count();
            assertThat(out.values.size()).isGreaterThanOrEqualTo((int) due);
        }
        assertThat(out.values.size()).isGreaterThan(400);
    }

    @Test
    void invalidOptionsNameTheOptionAndItsRange() {
        assertThatThrownBy(() -> SimulatorConfig.builder().machines(0))
                .hasMessage("option 'machines' must be between 1 and 100000, was 0");
        assertThatThrownBy(() -> SimulatorConfig.builder().lateFraction(1.5))
                .hasMessage("option 'lateFraction' must be between 0 and 1, was 1.5");
        assertThatThrownBy(() -> SimulatorConfig.builder().runCycle(Duration.ofSeconds(10)))
                .hasMessageContaining("'runCycle'").hasMessageContaining("60000 ms");
        assertThatThrownBy(() -> SimulatorConfig.builder().machines(100).eventsPerSecond(10).build())
                .hasMessageContaining("'eventsPerSecond'").hasMessageContaining("between 60");
        assertThatThrownBy(() -> SimulatorConfig.builder().dropoutMaxLength(Duration.ofMinutes(3)).build())
                .hasMessageContaining("'dropoutMaxLength'").hasMessageContaining("half of runCycle");
        assertThatThrownBy(() -> new FactorySimulator(SimulatorConfig.builder().build()).anomalies())
                .hasMessageContaining("'duration'");
    }
}
