package io.millrace.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import io.millrace.sim.Anomaly;
import io.millrace.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo's pipeline with the pattern {@link SpikeThenDrop}, on the demo's default floor (8 machines, 333
 * events per simulated second, 30 simulated minutes) at unlimited speed: every injected anomaly is alerted and
 * no alert is false, on the default seed and on seeds 1 to 10.
 */
class FactoryDemoAlertsTest {
    private static final long DEFAULT_SEED = 42;

    private static SimulatorConfig floor(long seed) {
        return SimulatorConfig.builder()
                .seed(seed)
                .machines(8)
                .eventsPerSecond(333)
                .duration(Duration.ofMinutes(30))
                .unlimitedSpeed()
                .build();
    }

    /** Runs the demo pipeline on {@code seed}; checks the printed alert lines; returns the score. */
    private static DemoConsole.Score run(long seed) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        DemoConsole console = new DemoConsole(new PrintStream(printed, true, StandardCharsets.UTF_8), false);
        FactoryDemo demo = new FactoryDemo(floor(seed), 2, Clock.system(), console.sinks());
        demo.pipeline().execute("factory-demo seed " + seed);

        List<String> alertLines = printed.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(" ALERT ")).toList();
        assertThat(alertLines).as("alert lines of seed %d", seed)
                .containsExactlyElementsOf(console.alerts().stream().map(DemoConsole::alertLine).toList());

        List<Anomaly> inside = demo.simulator().anomalies();                           // entirely inside the run
        List<Anomaly> any = demo.simulator().anomalies(Long.MIN_VALUE, Long.MAX_VALUE);  // also in progress at the start
        for (Alert a : console.matches()) {
            assertThat(any).as("seed %d: the anomaly of %s", seed, a).anyMatch(a::isOf);
        }
        for (Anomaly t : inside) {
            assertThat(console.alerts()).as("seed %d: alerts of %s", seed, t).anyMatch(a -> a.isOf(t));
        }
        assertThat(console.lateForAlerts()).as("seed %d: readings late for the pattern, counted", seed).isPositive();
        DemoConsole.Score score = console.score(demo);
        assertThat(score.upTo()).as("input ended").isEqualTo(Long.MAX_VALUE);
        assertThat(score.injected()).as("seed %d injected", seed).isBetween(inside.size(), any.size());
        assertThat(score.alerts()).as("seed %d: one alert per anomaly", seed).isEqualTo(score.injected());
        assertThat(console.alerts()).as("seed %d: each anomaly alerted once", seed)
                .allSatisfy(a -> assertThat(console.alerts().stream().filter(b -> any.stream().anyMatch(t -> a.isOf(t) && b.isOf(t)))).hasSize(1));
        assertThat(console.alertSummary(demo)).contains(String.format(java.util.Locale.ROOT,
                "%,d of %,d anomalies detected, 0 false alarms", score.injected(), score.injected()));
        return score;
    }

    @Test
    void defaultSeed_everyAnomalyDetected_noFalseAlarm() throws Exception {
        DemoConsole.Score score = run(DEFAULT_SEED);
        assertThat(score.injected()).as("anomalies on the default seed").isGreaterThanOrEqualTo(5);
        assertThat(score.detected()).isEqualTo(score.injected());
        assertThat(score.falseAlarms()).isZero();
        assertThat(score.repeats()).as("matches folded into an alert").isPositive();
    }

    @Test
    void seeds1To10_everyAnomalyDetected_noFalseAlarm() throws Exception {
        int injected = 0;
        for (long seed = 1; seed <= 10; seed++) {
            DemoConsole.Score score = run(seed);
            assertThat(score.detected()).as("seed %d detected", seed).isEqualTo(score.injected());
            assertThat(score.falseAlarms()).as("seed %d false alarms", seed).isZero();
            injected += score.injected();
        }
        assertThat(injected).as("anomalies over seeds 1-10").isGreaterThanOrEqualTo(50);
    }

    @Test
    void alertLine_namesTheMachineThenSpikeAndDropWithTimeAndValue() {
        long t0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        Alert alert = new Alert("M003", t0 + 72_400, 92.44, t0 + 85_500, 3.61);

        assertThat(DemoConsole.alertLine(alert))
                .isEqualTo("[00:01:25] ALERT M003  temperature 92.4 °C at 00:01:12, then pressure 3.6 bar at 00:01:25");
    }

    @Test
    void aMatchOfTheSameMachineWithin30sOfAnAlertsSpike_isARepeat() {
        Alert alert = new Alert("M001", 100_000, 90, 112_000, 3.5);
        assertThat(DemoConsole.isRepeat(null, alert)).isFalse();
        assertThat(DemoConsole.isRepeat(alert, new Alert("M001", 109_000, 90, 113_000, 3.5))).isTrue();
        assertThat(DemoConsole.isRepeat(alert, new Alert("M001", 129_999, 90, 131_000, 3.5))).isTrue();
        assertThat(DemoConsole.isRepeat(alert, new Alert("M001", 130_000, 90, 131_000, 3.5))).isFalse();
        assertThat(DemoConsole.isRepeat(alert, new Alert("M002", 109_000, 90, 113_000, 3.5))).isFalse();
    }

    @Test
    void score_countsAnAlertOutsideEveryAnomalyAsFalse_andAnUnalertedAnomalyAsMissed() {
        List<Anomaly> truth = new io.millrace.sim.FactorySimulator(floor(DEFAULT_SEED)).anomalies();
        assertThat(truth).hasSizeGreaterThan(1);
        Anomaly first = truth.get(0);

        long from = floor(DEFAULT_SEED).startTime();
        DemoConsole.Score score = DemoConsole.score(truth, List.of(
                new Alert(first.machineId(), first.spikeStart(), 90, first.spikeStart() - 1, 3.5),    // drop before the spike: no anomaly
                new Alert(first.machineId(), first.spikeStart(), 90, first.dropStart(), 3.5),
                new Alert(first.machineId(), first.spikeEnd() - 1, 88, first.dropEnd() - 1, 3.7)), 2, from, Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(score).isEqualTo(new DemoConsole.Score(truth.size(), 1, 2, 1, 1, Long.MAX_VALUE));

        // stopped before the first anomaly ended: it counts only because it was alerted, the others not at all
        DemoConsole.Score early = DemoConsole.score(truth, List.of(new Alert(first.machineId(), first.spikeStart(), 90, first.dropStart(), 3.5)),
                1, from, first.dropEnd() - 1, first.dropEnd() - 1);
        assertThat(early.injected()).isEqualTo(1 + (int) truth.stream().filter(a -> a != first && a.dropEnd() <= first.dropEnd() - 1).count());
        assertThat(early.detected()).isEqualTo(1);
        assertThat(early.falseAlarms()).isZero();
    }
}
