package io.millrace.runtime.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.BackendContract;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.Triggerable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Timers as every state backend must keep them: deduplicated, deletable, fired in timestamp order with
 * their key current, up to the watermark or processing time, including timers registered while firing.
 */
public abstract class TimerServiceContractTest extends BackendContract {
    protected final ManualClock clock = new ManualClock(0);
    protected final List<String> fired = new ArrayList<>();
    protected KeyedStateBackend backend;
    protected InternalTimerService<String> timers;
    private Triggerable<String> onFire = new Triggerable<>() {
        @Override
        public void onEventTime(long timestamp, String namespace) {
            fired.add("event " + backend.currentKey() + " " + namespace + " " + timestamp);
        }

        @Override
        public void onProcessingTime(long timestamp, String namespace) {
            fired.add("proc " + backend.currentKey() + " " + namespace + " " + timestamp);
        }
    };

    @BeforeEach
    public void createTimers() {
        backend = backend(new KeyGroupRange(0, 127), 128, clock);
        timers = backend.timerService("t", new Triggerable<>() {
            @Override
            public void onEventTime(long timestamp, String namespace) throws Exception {
                onFire.onEventTime(timestamp, namespace);
            }

            @Override
            public void onProcessingTime(long timestamp, String namespace) throws Exception {
                onFire.onProcessingTime(timestamp, namespace);
            }
        });
    }

    @Test
    public void registeringTheSameTimerTwice_givesOneTimer() throws Exception {
        backend.setCurrentKey("a");
        timers.registerEventTimeTimer("w", 10);
        timers.registerEventTimeTimer("w", 10);
        timers.registerEventTimeTimer("x", 10);
        backend.setCurrentKey("b");
        timers.registerEventTimeTimer("w", 10);
        assertThat(timers.size()).isEqualTo(3);
        backend.advanceWatermark(10);
        assertThat(fired).hasSize(3);
        assertThat(timers.size()).isZero();
    }

    @Test
    public void deletedTimers_doNotFire_andDeletingAnAbsentTimerDoesNothing() throws Exception {
        backend.setCurrentKey("a");
        timers.registerEventTimeTimer("w", 10);
        timers.registerEventTimeTimer("w", 20);
        timers.registerProcessingTimeTimer("w", 10);
        timers.deleteEventTimeTimer("w", 10);
        timers.deleteEventTimeTimer("w", 99);
        timers.deleteProcessingTimeTimer("w", 10);
        assertThat(timers.size()).isEqualTo(1);
        backend.advanceWatermark(100);
        backend.advanceProcessingTime(100);
        assertThat(fired).containsExactly("event a w 20");
    }

    @Test
    public void eventTimers_fireInTimestampOrder_withTheirKeyCurrent_onlyUpToTheWatermark() throws Exception {
        long[] times = {50, 10, 40, 20, 30};
        for (int i = 0; i < times.length; i++) {
            backend.setCurrentKey("k" + i);
            timers.registerEventTimeTimer("w", times[i]);
        }
        backend.advanceWatermark(35);
        assertThat(fired).containsExactly("event k1 w 10", "event k3 w 20", "event k4 w 30");
        assertThat(timers.currentWatermark()).isEqualTo(35);
        backend.advanceWatermark(Long.MAX_VALUE);
        assertThat(fired).endsWith("event k2 w 40", "event k0 w 50");
    }

    @Test
    public void eventAndProcessingTimers_followTheirOwnClocks() throws Exception {
        backend.setCurrentKey("a");
        timers.registerEventTimeTimer("w", 100);
        timers.registerProcessingTimeTimer("w", 200);
        backend.advanceProcessingTime(150);
        backend.advanceWatermark(150);
        assertThat(fired).containsExactly("event a w 100");
        backend.advanceWatermark(250);
        assertThat(fired).hasSize(1);
        clock.set(200);
        assertThat(timers.currentProcessingTime()).isEqualTo(200);
        backend.advanceProcessingTime(200);
        assertThat(fired).containsExactly("event a w 100", "proc a w 200");
        assertThat(timers.size()).isZero();
    }

    @Test
    public void timersRegisteredInACallbackForAPassedTime_fireInTheSameAdvance() throws Exception {
        backend.setCurrentKey("a");
        timers.registerEventTimeTimer("w", 10);
        onFire = new Triggerable<>() {
            @Override
            public void onEventTime(long timestamp, String namespace) {
                fired.add(backend.currentKey() + "@" + timestamp);
                if (timestamp < 30) {
                    backend.setCurrentKey("b" + timestamp);
                    timers.registerEventTimeTimer("w", timestamp + 10);
                    timers.registerEventTimeTimer("w", 1_000);
                }
            }

            @Override
            public void onProcessingTime(long timestamp, String namespace) {}
        };
        backend.advanceWatermark(100);
        assertThat(fired).containsExactly("a@10", "b10@20", "b20@30");
        assertThat(timers.size()).isEqualTo(2);
    }

    @Test
    public void registeringWithoutCurrentKey_fails() {
        assertThatThrownBy(() -> timers.registerEventTimeTimer("w", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'t'");
    }

    @Test
    public void timersOfTwoServices_fireInGlobalTimestampOrder() throws Exception {
        InternalTimerService<String> other = backend.timerService("other", onFireForwarder("other"));
        backend.setCurrentKey("a");
        timers.registerEventTimeTimer("w", 20);
        other.registerEventTimeTimer("o", 10);
        other.registerEventTimeTimer("o", 30);
        backend.advanceWatermark(40);
        assertThat(fired).containsExactly("other 10", "event a w 20", "other 30");
    }

    @Test
    public void randomRegistrationsAndDeletions_fireLikeASortedSet() throws Exception {
        Random random = new Random(7);
        java.util.Set<String> live = new java.util.HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            String key = "k" + random.nextInt(50);
            long time = random.nextInt(2_000);
            backend.setCurrentKey(key);
            String id = "event " + key + " w " + time;
            if (random.nextInt(4) == 0) {
                timers.deleteEventTimeTimer("w", time);
                live.remove(id);
            } else {
                timers.registerEventTimeTimer("w", time);
                live.add(id);
            }
        }
        assertThat(timers.size()).isEqualTo(live.size());
        backend.advanceWatermark(Long.MAX_VALUE);
        assertThat(fired).hasSize(live.size());
        assertThat(new java.util.HashSet<>(fired)).isEqualTo(live);
        List<Long> firedTimes = fired.stream().map(f -> Long.parseLong(f.substring(f.lastIndexOf(' ') + 1))).toList();
        assertThat(firedTimes).isSorted();
    }

    private Triggerable<String> onFireForwarder(String label) {
        return new Triggerable<>() {
            @Override
            public void onEventTime(long timestamp, String namespace) {
                fired.add(label + " " + timestamp);
            }

            @Override
            public void onProcessingTime(long timestamp, String namespace) {
                fired.add(label + " " + timestamp);
            }
        };
    }
}
