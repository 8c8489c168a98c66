package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.SnapshotImage;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** TTL expiry continues across a snapshot and restore: restored entries keep their checkpointed expiry. */
class HeapSnapshotTtlTest {

    /** The backend under test; the serialized-values variant of this test overrides it. */
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, io.millrace.api.time.Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);
    private static final StateTtlConfig AFTER_WRITE = StateTtlConfig.afterWrite(Duration.ofMillis(100));
    private static final StateTtlConfig AFTER_ACCESS = StateTtlConfig.afterAccess(Duration.ofMillis(100));

    private static <T> ValueStateDescriptor<T> value(String name, StateTtlConfig ttl) {
        ValueStateDescriptor<T> d = new ValueStateDescriptor<>(name);
        d.enableTimeToLive(ttl);
        return d;
    }

    @Test
    void restoredValuesAndMapEntries_expireWhenTheyWouldHaveWithoutTheRestore() throws Exception {
        ManualClock clock = new ManualClock(1_000);
        HeapKeyedStateBackend backend = heap(ALL, 128, clock);
        ValueState<String> written = backend.stateStore().getState(value("written", AFTER_WRITE));
        MapStateDescriptor<String, Long> mapDescriptor = new MapStateDescriptor<>("map");
        mapDescriptor.enableTimeToLive(AFTER_WRITE);
        MapState<String, Long> map = backend.stateStore().getMapState(mapDescriptor);
        backend.setCurrentKey("a");
        written.update("a1");
        map.put("x", 1L);
        clock.set(1_050);
        backend.setCurrentKey("b");
        written.update("b1");
        backend.setCurrentKey("a");
        map.put("y", 2L);
        SnapshotImage image = SnapshotImage.take(backend);

        ManualClock later = new ManualClock(1_080);
        HeapKeyedStateBackend fresh = heap(ALL, 128, later);
        image.restoreInto(fresh);
        ValueState<String> restored = fresh.stateStore().getState(value("written", AFTER_WRITE));
        MapState<String, Long> restoredMap = fresh.stateStore().getMapState(mapDescriptor);
        fresh.setCurrentKey("a");
        assertThat(restored.value()).isEqualTo("a1");
        assertThat(restoredMap.get("x")).isEqualTo(1L);
        later.set(1_100);
        assertThat(restored.value()).isNull();
        assertThat(restoredMap.get("x")).isNull();
        assertThat(restoredMap.get("y")).isEqualTo(2L);
        fresh.setCurrentKey("b");
        assertThat(restored.value()).isEqualTo("b1");
        later.set(1_150);
        assertThat(restored.value()).isNull();
        fresh.setCurrentKey("a");
        assertThat(restoredMap.isEmpty()).isTrue();
        fresh.advanceProcessingTime(1_150);
        assertThat(fresh.entryCount()).isZero();
    }

    @Test
    void afterAccess_aReadAfterRestoreRestartsTheClock() throws Exception {
        ManualClock clock = new ManualClock(1_000);
        HeapKeyedStateBackend backend = heap(ALL, 128, clock);
        backend.stateStore().getState(value("seen", AFTER_ACCESS));
        backend.setCurrentKey("k");
        backend.stateStore().getState(HeapSnapshotTtlTest.<String>value("seen", AFTER_ACCESS)).update("v");
        SnapshotImage image = SnapshotImage.take(backend);

        ManualClock later = new ManualClock(1_090);
        HeapKeyedStateBackend fresh = heap(ALL, 128, later);
        image.restoreInto(fresh);
        ValueState<String> seen = fresh.stateStore().getState(value("seen", AFTER_ACCESS));
        fresh.setCurrentKey("k");
        assertThat(seen.value()).isEqualTo("v");
        later.set(1_180);
        assertThat(seen.value()).isEqualTo("v");
        later.set(1_290);
        assertThat(seen.value()).isNull();
    }

    @Test
    void aStateCheckpointedWithoutTtl_startsAFreshTtlWhenRegisteredWithOne() throws Exception {
        HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
        backend.stateStore().getState(new ValueStateDescriptor<String>("v"));
        backend.setCurrentKey("k");
        backend.stateStore().getState(new ValueStateDescriptor<String>("v")).update("old");
        SnapshotImage image = SnapshotImage.take(backend);

        ManualClock clock = new ManualClock(5_000);
        HeapKeyedStateBackend fresh = heap(ALL, 128, clock);
        image.restoreInto(fresh);
        ValueState<String> v = fresh.stateStore().getState(value("v", AFTER_WRITE));
        fresh.setCurrentKey("k");
        assertThat(v.value()).isEqualTo("old");
        clock.set(5_100);
        assertThat(v.value()).isNull();
    }
}
