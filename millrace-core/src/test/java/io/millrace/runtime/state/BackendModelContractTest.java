package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random operations on a backend compared with a plain HashMap keyed by (key, state). */
public abstract class BackendModelContractTest extends BackendContract {

    private record Cell(int key, String state) {}

    @Test
    public void randomOperations_matchAReferenceModel() {
        for (long seed = 1; seed <= 5; seed++) {
            runRound(new Random(seed));
        }
    }

    /** A value with the time it expires, in the TTL reference model. */
    private record Timed(int value, long expiry) {}

    @Test
    public void randomOperationsWithTtlAndAClock_matchAReferenceModel_andSweepsEmptyTheBackend() throws Exception {
        Random random = new Random(11);
        ManualClock clock = new ManualClock(0);
        KeyedStateBackend backend = backend(new KeyGroupRange(0, 15), 16, clock);
        ValueState<Integer> written = backend.stateStore().getState(
                (ValueStateDescriptor<Integer>) new ValueStateDescriptor<Integer>("written")
                        .enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(40))));
        MapState<Integer, Integer> accessed = backend.stateStore().getMapState(
                (MapStateDescriptor<Integer, Integer>) new MapStateDescriptor<Integer, Integer>("accessed")
                        .enableTimeToLive(StateTtlConfig.afterAccess(Duration.ofMillis(40))));
        Map<Integer, Timed> values = new HashMap<>();
        Map<List<Integer>, Timed> mapEntries = new HashMap<>();

        for (int op = 0; op < 30_000; op++) {
            int key = random.nextInt(500);
            int x = random.nextInt(100);
            long now = clock.millis();
            backend.setCurrentKey(key);
            switch (random.nextInt(8)) {
                case 0 -> {
                    written.update(x);
                    values.put(key, new Timed(x, now + 40));
                }
                case 1 -> {
                    Timed t = values.get(key);
                    assertThat(written.value()).isEqualTo(t != null && t.expiry > now ? t.value : null);
                }
                case 2 -> {
                    accessed.put(x % 4, x);
                    mapEntries.put(List.of(key, x % 4), new Timed(x, now + 40));
                }
                case 3 -> {
                    List<Integer> id = List.of(key, x % 4);
                    Timed t = mapEntries.get(id);
                    boolean live = t != null && t.expiry > now;
                    assertThat(accessed.get(x % 4)).isEqualTo(live ? t.value : null);
                    if (live) {
                        mapEntries.put(id, new Timed(t.value, now + 40));
                    }
                }
                case 4 -> clock.set(now + random.nextInt(5));
                case 5 -> backend.advanceProcessingTime(now);
                default -> {
                    written.clear();
                    values.remove(key);
                }
            }
        }
        long liveNow = values.values().stream().filter(t -> t.expiry > clock.millis()).count();
        assertThat(backend.entryCount()).isGreaterThanOrEqualTo(liveNow);
        clock.set(clock.millis() + 41);
        for (int tick = 0; tick < 50; tick++) {
            backend.advanceProcessingTime(clock.millis());
        }
        assertThat(backend.entryCount()).isZero();
    }

    @SuppressWarnings("unchecked")
    private void runRound(Random random) {
        KeyedStateBackend backend = backend(new KeyGroupRange(0, 31), 32, new ManualClock(0));
        KeyedStateStore store = backend.stateStore();
        ValueState<Integer> value = store.getState(new ValueStateDescriptor<>("value"));
        ListState<Integer> list = store.getListState(new ListStateDescriptor<>("list"));
        MapState<Integer, Integer> map = store.getMapState(new MapStateDescriptor<>("map"));
        ReducingState<Integer> sum = store.getReducingState(new ReducingStateDescriptor<>("sum", Integer::sum));
        Map<Cell, Object> model = new HashMap<>();

        for (int op = 0; op < 20_000; op++) {
            int key = random.nextInt(300);
            backend.setCurrentKey(key);
            int x = random.nextInt(50);
            switch (random.nextInt(10)) {
                case 0 -> {
                    value.update(x);
                    model.put(new Cell(key, "value"), x);
                }
                case 1 -> {
                    value.clear();
                    model.remove(new Cell(key, "value"));
                }
                case 2 -> {
                    list.add(x);
                    ((List<Integer>) model.computeIfAbsent(new Cell(key, "list"), c -> new ArrayList<Integer>())).add(x);
                }
                case 3 -> {
                    list.clear();
                    model.remove(new Cell(key, "list"));
                }
                case 4 -> {
                    map.put(x % 5, x);
                    ((Map<Integer, Integer>) model.computeIfAbsent(new Cell(key, "map"), c -> new HashMap<Integer, Integer>())).put(x % 5, x);
                }
                case 5 -> {
                    map.remove(x % 5);
                    Map<Integer, Integer> m = (Map<Integer, Integer>) model.get(new Cell(key, "map"));
                    if (m != null) {
                        m.remove(x % 5);
                        if (m.isEmpty()) {
                            model.remove(new Cell(key, "map"));
                        }
                    }
                }
                case 6 -> {
                    sum.add(x);
                    model.merge(new Cell(key, "sum"), x, (a, b) -> (Integer) a + (Integer) b);
                }
                case 7 -> {
                    sum.clear();
                    model.remove(new Cell(key, "sum"));
                }
                default -> {
                    assertThat(value.value()).isEqualTo(model.get(new Cell(key, "value")));
                    List<Integer> expectedList = (List<Integer>) model.getOrDefault(new Cell(key, "list"), List.of());
                    assertThat(list.get()).containsExactlyElementsOf(expectedList);
                    Map<Integer, Integer> expectedMap = (Map<Integer, Integer>) model.getOrDefault(new Cell(key, "map"), Map.of());
                    Map<Integer, Integer> actualMap = new HashMap<>();
                    map.entries().forEach(e -> actualMap.put(e.getKey(), e.getValue()));
                    assertThat(actualMap).isEqualTo(expectedMap);
                    assertThat(sum.get()).isEqualTo(model.get(new Cell(key, "sum")));
                }
            }
            if (op % 1000 == 0) {
                assertThat(backend.entryCount()).isEqualTo(model.size());
            }
        }
        assertThat(backend.entryCount()).isEqualTo(model.size());
    }
}
