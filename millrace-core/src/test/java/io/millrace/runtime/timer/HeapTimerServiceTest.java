package io.millrace.runtime.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timer contract on the heap backend, plus per-key-group visiting of heap timers. */
class HeapTimerServiceTest extends TimerServiceContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }

    @Test
    void timerCounts_areKeptPerTimeDomain() throws Exception {
        HeapKeyedStateBackend heap = (HeapKeyedStateBackend) backend;
        heap.setCurrentKey("a");
        timers.registerEventTimeTimer("w", 1);
        timers.registerProcessingTimeTimer("w", 1);
        timers.registerProcessingTimeTimer("w", 2);
        assertThat(heap.eventTimeTimerCount()).isEqualTo(1);
        assertThat(heap.processingTimeTimerCount()).isEqualTo(2);
        heap.advanceProcessingTime(5);
        assertThat(heap.processingTimeTimerCount()).isZero();
    }

    @Test
    void timersOfOneKeyGroup_canBeVisitedOnTheirOwn() {
        for (int k = 0; k < 500; k++) {
            backend.setCurrentKey(k);
            timers.registerEventTimeTimer("w", k);
            timers.registerProcessingTimeTimer("w", k);
        }
        int group = KeyGroups.keyGroupFor(7, 128);
        List<Object> keys = new ArrayList<>();
        ((HeapTimerService<String>) timers).forEachTimerInGroup(group, t -> keys.add(t.key()), t -> keys.add(t.key()));
        assertThat(keys).contains(7).allSatisfy(k -> assertThat(KeyGroups.keyGroupFor(k, 128)).isEqualTo(group));
    }
}
