package io.millrace.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import io.millrace.runtime.exchange.Channel;
import io.millrace.runtime.exchange.TaskSignal;
import io.millrace.testing.Await;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InFlightSizingTest {
    private static final long MS = 1_000_000L;
    private static final long TARGET = 100 * MS;

    private static Channel channel(int capacity) {
        return new Channel("a", 0, "b", 0, capacity, 8, new TaskSignal());
    }

    /** Puts n elements and reads them back, as a consumer would during a period. */
    private static void pass(Channel c, int n) {
        for (int i = 0; i < n; i++) {
            c.put(i, () -> false, Clock.system());
            assertThat(c.poll()).isEqualTo(i);
        }
    }

    @Test
    void whenConsumerReadsFast_thenBoundStaysAtCapacity() {
        Channel c = channel(32);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {c}, TARGET, 0);
        pass(c, 1000); // 1000 elements in 50 ms: 2,000 per 100 ms
        sizing.resize(50 * MS, 0, new boolean[1]);
        assertThat(c.bound()).isEqualTo(32);
    }

    @Test
    void whenConsumerReadsSlowly_thenBoundShrinksToTwo_andGrowsBackWhenItSpeedsUp() {
        Channel c = channel(32);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {c}, TARGET, 0);
        long now = 0;
        for (int period = 0; period < 5; period++) {
            pass(c, 1); // 1 element per 50 ms busy: 2 per 100 ms
            now += 50 * MS;
            sizing.resize(now, 0, new boolean[1]);
        }
        assertThat(c.bound()).isEqualTo(2);

        for (int period = 0; period < 20 && c.bound() < 32; period++) {
            pass(c, 500);
            now += 50 * MS;
            sizing.resize(now, 0, new boolean[1]);
        }
        assertThat(c.bound()).isEqualTo(32);
    }

    @Test
    void whenModeratelyFast_thenBoundHoldsAboutTheTargetOfReading() {
        Channel c = channel(32);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {c}, TARGET, 0);
        pass(c, 5); // 5 per 50 ms: 10 per 100 ms
        sizing.resize(50 * MS, 0, new boolean[1]);
        assertThat(c.bound()).isEqualTo(10);
    }

    @Test
    void timeWaitingForInputDoesNotCountAsReadingTime() {
        Channel c = channel(32);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {c}, TARGET, 0);
        // 5 elements in a 50 ms period of which 45 ms were spent waiting for input: 100 per 100 ms of reading
        pass(c, 5);
        sizing.resize(50 * MS, 45 * MS, new boolean[1]);
        assertThat(c.bound()).isEqualTo(32);
    }

    @Test
    void aPeriodSpentAlmostEntirelyIdle_doublesTheBound_upToTheCapacity_andMeasuresNothing() {
        Channel c = channel(32);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {c}, TARGET, 0);
        c.bound(7);
        pass(c, 1);
        sizing.resize(50 * MS, 50 * MS - 1000, new boolean[1]);
        assertThat(c.bound()).isEqualTo(14);
        sizing.resize(100 * MS, 100 * MS - 2000, new boolean[1]);
        sizing.resize(150 * MS, 150 * MS - 3000, new boolean[1]);
        assertThat(c.bound()).isEqualTo(32);
        pass(c, 5); // 5 per 50 ms busy: 10 per 100 ms, the first rate measured
        sizing.resize(200 * MS, 150 * MS - 3000, new boolean[1]);
        assertThat(c.bound()).isEqualTo(10);
    }

    @Test
    void aChannelHeldBackByAlignment_keepsItsBound_whileTheOthersAreSized() {
        Channel held = channel(32);
        Channel read = channel(32);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {held, read}, TARGET, 0);
        held.bound(20);
        pass(read, 1);
        sizing.resize(50 * MS, 0, new boolean[] {true, false});
        assertThat(held.bound()).isEqualTo(20);
        assertThat(read.bound()).isEqualTo(2);
    }

    @Test
    void boundNeverExceedsCapacityNorGoesBelowOne() {
        Channel small = channel(1);
        InFlightSizing sizing = new InFlightSizing(new Channel[] {small}, TARGET, 0);
        sizing.resize(50 * MS, 0, new boolean[1]); // nothing read
        assertThat(small.bound()).isEqualTo(1);
        small.bound(0);
        assertThat(small.bound()).isEqualTo(1);
        small.bound(1000);
        assertThat(small.bound()).isEqualTo(1);
    }

    @Test
    void aProducerWaitingOnAFullChannel_isReleasedWhenTheBoundIsRaised() throws Exception {
        Channel c = channel(8);
        c.bound(2);
        c.put("x", () -> false, Clock.system());
        c.put("y", () -> false, Clock.system());
        assertThat(c.writable()).isFalse();
        AtomicLong waited = new AtomicLong(-2);
        Thread producer = new Thread(() -> waited.set(c.put("z", () -> false, Clock.system())));
        producer.start();
        Await.until("producer waits on the full channel", Duration.ofSeconds(10),
                () -> producer.getState() == Thread.State.TIMED_WAITING || producer.getState() == Thread.State.WAITING);
        assertThat(c.size()).isEqualTo(2);
        c.bound(3);
        producer.join(10_000);
        assertThat(producer.isAlive()).isFalse();
        assertThat(waited.get()).isPositive();
        assertThat(c.size()).isEqualTo(3);
        assertThat(c.poll()).isEqualTo("x");
        assertThat(c.poll()).isEqualTo("y");
        assertThat(c.poll()).isEqualTo("z");
    }
}
