package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TTL as every backend must honour it: expired state is never returned and is physically removed. */
public abstract class StateTtlContractTest extends BackendContract {
    private static final StateTtlConfig AFTER_WRITE = StateTtlConfig.afterWrite(Duration.ofMillis(100));
    private static final StateTtlConfig AFTER_ACCESS = StateTtlConfig.afterAccess(Duration.ofMillis(100));

    protected final ManualClock clock = new ManualClock(1_000);
    protected KeyedStateBackend backend;
    protected KeyedStateStore store;

    @BeforeEach
    public void createDefaultBackend() {
        backend = backend(new KeyGroupRange(0, 127), 128, clock);
        store = backend.stateStore();
    }

    private void at(long millis) {
        clock.set(millis);
    }

    @Test
    public void afterWrite_valueExpiresTtlAfterTheLastWrite_evenWhenRead() {
        ValueState<String> state = store.getState(ttl(new ValueStateDescriptor<String>("v"), AFTER_WRITE));
        backend.setCurrentKey("k");
        state.update("a");
        at(1_050);
        assertThat(state.value()).isEqualTo("a");
        at(1_099);
        assertThat(state.value()).isEqualTo("a");
        at(1_100);
        assertThat(state.value()).isNull();
        assertThat(backend.entryCount()).isZero();
    }

    @Test
    public void afterWrite_aWriteRestartsTheClock() {
        ValueState<String> state = store.getState(ttl(new ValueStateDescriptor<String>("v"), AFTER_WRITE));
        backend.setCurrentKey("k");
        state.update("a");
        at(1_080);
        state.update("b");
        at(1_150);
        assertThat(state.value()).isEqualTo("b");
        at(1_180);
        assertThat(state.value()).isNull();
    }

    @Test
    public void afterAccess_aReadRestartsTheClock() {
        ValueState<String> state = store.getState(ttl(new ValueStateDescriptor<String>("v"), AFTER_ACCESS));
        backend.setCurrentKey("k");
        state.update("a");
        for (long t = 1_090; t <= 1_900; t += 90) {
            at(t);
            assertThat(state.value()).isEqualTo("a");
        }
        at(2_000);
        assertThat(state.value()).isNull();
    }

    @Test
    public void expiredList_isEmpty_andAddStartsAFreshList() {
        ListState<Integer> state = store.getListState(ttl(new ListStateDescriptor<Integer>("l"), AFTER_WRITE));
        backend.setCurrentKey("k");
        state.add(1);
        state.add(2);
        at(1_100);
        assertThat(state.get()).isEmpty();
        state.add(3);
        assertThat(state.get()).containsExactly(3);
    }

    @Test
    public void mapEntries_expireIndividually() {
        MapState<String, Integer> state = store.getMapState(ttl(new MapStateDescriptor<String, Integer>("m"), AFTER_WRITE));
        backend.setCurrentKey("k");
        state.put("old", 1);
        at(1_060);
        state.put("new", 2);
        at(1_120);
        assertThat(state.get("old")).isNull();
        assertThat(state.contains("old")).isFalse();
        assertThat(state.get("new")).isEqualTo(2);
        assertThat(state.entries()).containsExactly(Map.entry("new", 2));
        at(1_160);
        assertThat(state.isEmpty()).isTrue();
        assertThat(backend.entryCount()).isZero();
    }

    @Test
    public void expiredReducingAndAggregatingState_actAsEmpty() {
        ReducingState<Long> sum = store.getReducingState(ttl(new ReducingStateDescriptor<Long>("sum", Long::sum), AFTER_WRITE));
        AggregatingState<Long, Double> avg = store.getAggregatingState(
                ttl(new AggregatingStateDescriptor<>("avg", new KeyedStateBackendContractTest.Average()), AFTER_WRITE));
        backend.setCurrentKey("k");
        sum.add(5L);
        avg.add(5L);
        at(1_100);
        assertThat(sum.get()).isNull();
        assertThat(avg.get()).isNull();
        sum.add(1L);
        avg.add(1L);
        assertThat(sum.get()).isEqualTo(1L);
        assertThat(avg.get()).isEqualTo(1.0);
    }

    @Test
    public void transientKeys_arePhysicallyRemovedBySweeps_withoutBeingAccessedAgain() throws Exception {
        ValueState<Integer> value = store.getState(ttl(new ValueStateDescriptor<Integer>("v"), AFTER_WRITE));
        MapState<Integer, Integer> map = store.getMapState(ttl(new MapStateDescriptor<Integer, Integer>("m"), AFTER_ACCESS));
        for (int k = 0; k < 100_000; k++) {
            backend.setCurrentKey(k);
            value.update(k);
            map.put(k, k);
        }
        assertThat(backend.entryCount()).isEqualTo(200_000);
        at(1_200);
        for (int tick = 0; tick < 200 && backend.entryCount() > 0; tick++) {
            backend.advanceProcessingTime(clock.millis());
        }
        assertThat(backend.entryCount()).isZero();
    }

    @Test
    public void accessesOfOneKey_sweepExpiredEntriesOfOtherKeys() {
        ValueState<Integer> value = store.getState(ttl(new ValueStateDescriptor<Integer>("v"), AFTER_WRITE));
        for (int k = 0; k < 1_000; k++) {
            backend.setCurrentKey(k);
            value.update(k);
        }
        at(1_200);
        backend.setCurrentKey("live");
        for (int i = 0; i < 5_000; i++) {
            value.update(i);
        }
        assertThat(backend.entryCount()).isEqualTo(1);
    }

    @Test
    public void statesWithoutTtl_neverExpire() throws Exception {
        ValueState<String> state = store.getState(new ValueStateDescriptor<>("v"));
        backend.setCurrentKey("k");
        state.update("a");
        at(1_000_000_000L);
        backend.advanceProcessingTime(clock.millis());
        assertThat(state.value()).isEqualTo("a");
    }

    private static <D extends io.millrace.api.state.StateDescriptor<?>> D ttl(D descriptor, StateTtlConfig config) {
        descriptor.enableTimeToLive(config);
        return descriptor;
    }
}
