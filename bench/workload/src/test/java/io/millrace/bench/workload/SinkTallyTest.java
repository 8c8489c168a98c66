package io.millrace.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SinkTallyTest {
    private static final long BASE = 1_000;

    @Test
    void latencyRun_timesEveryNewTimestamp_andOneInEightOfTheRepeats() {
        Probe.reset(Query.Q0, BASE, 10, 0);
        Probe.onCreate(BASE); // the run's first event
        long[] created = new long[10];
        created[1] = created[2] = Probe.firstEventNanos();
        SinkTally tally = new SinkTally(Query.Q0, created, BASE, 0);
        for (int k = 0; k < 16; k++) {
            tally.onResult(BASE + 1); // counts 1..16: the first (a new timestamp), then 8 and 16
        }
        assertThat(tally.latencies().total()).isEqualTo(3);
        tally.onResult(BASE + 2); // a new timestamp, count 17
        tally.onResult(BASE + 1); // changed back: new again, count 18
        assertThat(tally.latencies().total()).isEqualTo(5);
        assertThat(tally.count).isEqualTo(18);
    }

    @Test
    void latencyRun_leavesOutResultsOfEventsCreatedBeforeTheSettlingTimeEnds() {
        Probe.reset(Query.Q0, BASE, 10, 0);
        Probe.onCreate(BASE);
        long first = Probe.firstEventNanos();
        long[] created = new long[10];
        created[1] = first - 1; // before the timed part (settle 0: it starts at the first event)
        created[2] = first;
        created[3] = 0;         // a millisecond no source created: no sample
        SinkTally tally = new SinkTally(Query.Q0, created, BASE, 0);
        tally.onResult(BASE + 1);
        tally.onResult(BASE + 2);
        tally.onResult(BASE + 3);
        assertThat(tally.latencies().total()).isEqualTo(1);
    }

    @Test
    void runWithoutLatency_countsResultsAndTimesNone() {
        Probe.reset(Query.Q0, BASE);
        SinkTally tally = Probe.newTally();
        for (int k = 0; k < 2_000; k++) {
            tally.onResult(BASE + k);
        }
        assertThat(tally.count).isEqualTo(2_000);
        assertThat(tally.latencies().total()).isZero();
        assertThat(tally.lastNanos).isPositive(); // stamped every 1,024 results, for the run's duration
    }
}
