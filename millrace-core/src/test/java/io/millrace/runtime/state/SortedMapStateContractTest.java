package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Sorted map state compared with {@link TreeMap}s: seeded random puts, removes, point lookups, first/last/floor/ceiling,
 * ranges, head and tail maps, removal while iterating and clears, on a state with TTL (a manual clock) and Long keys
 * and one without TTL and String keys; in the middle, snapshots (checkpoints and savepoints) restored into fresh
 * backends at 1, 2 or 3 subtasks. A subclass says which backend writes ({@link #createBackend}) and which one
 * restores ({@link #createRestoreTarget}, the same kind unless overridden, then restored from savepoints only).
 */
public abstract class SortedMapStateContractTest extends BackendContract {
    static final int MAX_PARALLELISM = 16;
    static final long TTL = 50;
    static final List<List<KeyGroupRange>> LAYOUTS = List.of(
            List.of(new KeyGroupRange(0, 15)),
            List.of(new KeyGroupRange(0, 7), new KeyGroupRange(8, 15)),
            List.of(new KeyGroupRange(0, 4), new KeyGroupRange(5, 10), new KeyGroupRange(11, 15)));
    static final String[] WORDS = {"", "a", "ab", "b", "Z", "zz", "é", "éa", "\uFFFD", "\uD83D\uDE00", "\uD83D\uDE00a", "m", "mm"};

    /** A backend that restores the snapshots of {@link #createBackend}'s backends; the same kind by default. */
    protected KeyedStateBackend createRestoreTarget(KeyGroupRange range, int maxParallelism, Clock clock) {
        return createBackend(range, maxParallelism, clock);
    }

    /** Whether restores may use checkpoints (the target reads the writer's own format), not only savepoints. */
    protected boolean restoresCheckpoints() {
        return true;
    }

    private record Timed(int value, long expiry) {}

    /** One subtask: its backend and states. */
    private static final class Part {
        final KeyedStateBackend backend;
        final SortedMapState<Long, Integer> numbers;
        final SortedMapState<String, Integer> words;

        Part(KeyedStateBackend backend) {
            this.backend = backend;
            numbers = backend.stateStore().getSortedMapState(numbersDescriptor());
            words = backend.stateStore().getSortedMapState(new SortedMapStateDescriptor<>("words", String.class));
        }
    }

    static SortedMapStateDescriptor<Long, Integer> numbersDescriptor() {
        SortedMapStateDescriptor<Long, Integer> d = new SortedMapStateDescriptor<>("numbers", Long.class);
        d.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(TTL)));
        return d;
    }

    @Test
    public void randomOperations_snapshotsAndRescaling_matchTreeMaps() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            runRound(new Random(seed));
        }
    }

    private void runRound(Random random) throws Exception {
        ManualClock clock = new ManualClock(1_000);
        List<Part> parts = new ArrayList<>();
        for (KeyGroupRange r : LAYOUTS.get(1)) {
            parts.add(new Part(backend(r, MAX_PARALLELISM, clock)));
        }
        Map<Long, TreeMap<Long, Timed>> numbers = new HashMap<>();
        Map<Long, TreeMap<String, Integer>> words = new HashMap<>();
        SortedMapStateDescriptor<String, Integer> order = new SortedMapStateDescriptor<>("order", String.class);
        boolean restoredOnTarget = false;
        for (int op = 0; op < 6_000; op++) {
            long key = random.nextInt(40);
            Part p = owner(parts, key);
            p.backend.setCurrentKey(key);
            long now = clock.millis();
            TreeMap<Long, Timed> nm = numbers.computeIfAbsent(key, k -> new TreeMap<>());
            nm.values().removeIf(t -> t.expiry <= now);
            TreeMap<String, Integer> wm = words.computeIfAbsent(key, k -> new TreeMap<>(order.keyOrder()));
            long a = random.nextInt(41) - 20L;
            long b = random.nextInt(41) - 20L;
            String at = "op " + op + ", key " + key;
            switch (random.nextInt(16)) {
                case 0, 1, 2 -> {
                    int v = random.nextInt(1000);
                    p.numbers.put(a, v);
                    nm.put(a, new Timed(v, now + TTL));
                }
                case 3 -> {
                    p.numbers.remove(a);
                    nm.remove(a);
                }
                case 4 -> {
                    Timed t = nm.get(a);
                    assertThat(p.numbers.get(a)).as(at).isEqualTo(t == null ? null : t.value);
                    assertThat(p.numbers.contains(a)).as(at).isEqualTo(t != null);
                }
                case 5 -> {
                    assertThat(p.numbers.firstEntry()).as(at + " first").isEqualTo(entry(nm.firstEntry()));
                    assertThat(p.numbers.lastEntry()).as(at + " last").isEqualTo(entry(nm.lastEntry()));
                    assertThat(p.numbers.isEmpty()).as(at).isEqualTo(nm.isEmpty());
                }
                case 6 -> {
                    assertThat(p.numbers.floorEntry(a)).as(at + " floor " + a).isEqualTo(entry(nm.floorEntry(a)));
                    assertThat(p.numbers.ceilingEntry(a)).as(at + " ceiling " + a).isEqualTo(entry(nm.ceilingEntry(a)));
                }
                case 7 -> {
                    Long from = random.nextInt(5) == 0 ? null : Math.min(a, b);
                    Long to = random.nextInt(5) == 0 ? null : Math.max(a, b);
                    NavigableMap<Long, Timed> expected = nm;
                    if (from != null && to != null && from >= to) {
                        expected = new TreeMap<>();
                    } else {
                        expected = from == null ? expected : expected.tailMap(from, true);
                        expected = to == null ? expected : expected.headMap(to, false);
                    }
                    assertThat(list(p.numbers.range(from, to))).as(at + " range " + from + ".." + to).isEqualTo(timed(expected));
                    assertThat(list(p.numbers.headMap(a))).as(at + " head " + a).isEqualTo(timed(nm.headMap(a, false)));
                    assertThat(list(p.numbers.tailMap(a))).as(at + " tail " + a).isEqualTo(timed(nm.tailMap(a, true)));
                }
                case 8 -> {
                    List<Map.Entry<Long, Integer>> seen = new ArrayList<>();
                    boolean drop = random.nextBoolean();
                    for (Map.Entry<Long, Integer> e : p.numbers.entries()) {
                        seen.add(e);
                        if (drop == (e.getValue() % 2 == 0)) {
                            p.numbers.remove(e.getKey()); // removal while iterating
                        }
                    }
                    assertThat(seen).as(at + " entries").isEqualTo(timed(nm));
                    for (Iterator<Timed> it = nm.values().iterator(); it.hasNext(); ) {
                        if (drop == (it.next().value % 2 == 0)) {
                            it.remove();
                        }
                    }
                    assertThat(list(p.numbers.entries())).as(at + " entries after removals").isEqualTo(timed(nm));
                }
                case 9, 10 -> {
                    String w = WORDS[random.nextInt(WORDS.length)] + (random.nextBoolean() ? "" : String.valueOf(random.nextInt(3)));
                    int v = random.nextInt(1000);
                    p.words.put(w, v);
                    wm.put(w, v);
                }
                case 11 -> {
                    String w = WORDS[random.nextInt(WORDS.length)];
                    assertThat(p.words.get(w)).as(at).isEqualTo(wm.get(w));
                    p.words.remove(w);
                    wm.remove(w);
                }
                case 12 -> {
                    String x = WORDS[random.nextInt(WORDS.length)];
                    String y = WORDS[random.nextInt(WORDS.length)];
                    NavigableMap<String, Integer> expected = order.keyOrder().compare(x, y) >= 0 ? new TreeMap<>() : wm.subMap(x, true, y, false);
                    assertThat(list(p.words.range(x, y))).as(at + " words " + x + ".." + y).isEqualTo(new ArrayList<>(expected.entrySet()));
                    assertThat(list(p.words.entries())).as(at + " words").isEqualTo(new ArrayList<>(wm.entrySet()));
                    assertThat(p.words.floorEntry(x)).as(at + " floor " + x).isEqualTo(wm.floorEntry(x));
                    assertThat(p.words.ceilingEntry(x)).as(at + " ceiling " + x).isEqualTo(wm.ceilingEntry(x));
                    assertThat(p.words.lastEntry()).as(at).isEqualTo(wm.lastEntry());
                }
                case 13 -> {
                    if (random.nextInt(10) == 0) {
                        p.numbers.clear();
                        nm.clear();
                        p.words.clear();
                        wm.clear();
                    }
                }
                case 14 -> clock.set(now + random.nextInt(8));
                default -> {
                    if (random.nextInt(20) == 0) {
                        boolean savepoint = !restoresCheckpoints() || random.nextBoolean();
                        boolean toTarget = !restoredOnTarget || restoresCheckpoints();
                        parts = restore(parts, LAYOUTS.get(random.nextInt(LAYOUTS.size())), clock, savepoint, op, toTarget);
                        restoredOnTarget |= toTarget;
                    }
                }
            }
        }
        // every key's whole state at the end, then the TTL state empty once every entry expired
        for (long key = 0; key < 40; key++) {
            Part p = owner(parts, key);
            p.backend.setCurrentKey(key);
            long now = clock.millis();
            TreeMap<Long, Timed> nm = numbers.getOrDefault(key, new TreeMap<>());
            nm.values().removeIf(t -> t.expiry <= now);
            assertThat(list(p.numbers.entries())).as("key " + key + " at the end").isEqualTo(timed(nm));
            assertThat(list(p.words.entries())).as("key " + key + " at the end")
                    .isEqualTo(new ArrayList<>(words.getOrDefault(key, new TreeMap<>()).entrySet()));
        }
        clock.set(clock.millis() + TTL);
        for (long key = 0; key < 40; key++) {
            Part p = owner(parts, key);
            p.backend.setCurrentKey(key);
            assertThat(p.numbers.isEmpty()).as("key " + key + " after the TTL").isTrue();
        }
    }

    /**
     * Snapshots every part and restores the images into fresh backends of {@code layout}; the snapshotting backends stay
     * open (closed after the test) and are no longer used.
     */
    private List<Part> restore(List<Part> parts, List<KeyGroupRange> layout, ManualClock clock, boolean savepoint, long id,
            boolean toTarget) throws Exception {
        List<SnapshotImage> images = new ArrayList<>();
        for (Part p : parts) {
            p.backend.setCurrentKey(null);
            // a full checkpoint (key group sections of the backend's own format) or a savepoint (the canonical format)
            KeyedStateSnapshot snapshot = savepoint ? p.backend.snapshot(id + 1, true) : p.backend.snapshot(id + 1);
            images.add(SnapshotImage.write(snapshot, p.backend.keyGroupRange()));
        }
        List<Part> restored = new ArrayList<>();
        for (KeyGroupRange r : layout) {
            KeyedStateBackend b = closedAfterTest(toTarget ? createRestoreTarget(r, MAX_PARALLELISM, clock)
                    : createBackend(r, MAX_PARALLELISM, clock));
            for (SnapshotImage image : images) {
                image.restoreInto(b);
            }
            restored.add(new Part(b));
        }
        return restored;
    }

    @Test
    public void unsupportedKeyTypesAndKeysOfAnotherType_areRefusedNamingTheState() {
        assertThatThrownBy(() -> new SortedMapStateDescriptor<>("by-time", java.time.Instant.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'by-time'").hasMessageContaining("java.time.Instant")
                .hasMessageContaining("Integer").hasMessageContaining("Long").hasMessageContaining("String");
        KeyedStateBackend backend = backend(new KeyGroupRange(0, 15), MAX_PARALLELISM, new ManualClock(0));
        @SuppressWarnings({"unchecked", "rawtypes"})
        SortedMapState<Object, Integer> raw = (SortedMapState) backend.stateStore().getSortedMapState(numbersDescriptor());
        backend.setCurrentKey(1L);
        assertThatThrownBy(() -> raw.put(3, 1)).hasMessageContaining("'numbers'").hasMessageContaining("java.lang.Integer");
        SortedMapState<String, Integer> words = backend.stateStore().getSortedMapState(new SortedMapStateDescriptor<>("w", String.class));
        assertThatThrownBy(() -> words.put("bad \uD800 surrogate", 1)).hasMessageContaining("'w'").hasMessageContaining("surrogate");
        assertThatThrownBy(() -> words.put(null, 1)).hasMessageContaining("'w'");
    }

    @Test
    public void intKeys_negativeBeforePositive_andMinMaxAtTheEnds() {
        KeyedStateBackend backend = backend(new KeyGroupRange(0, 15), MAX_PARALLELISM, new ManualClock(0));
        SortedMapState<Integer, String> s = backend.stateStore().getSortedMapState(new SortedMapStateDescriptor<>("ints", Integer.class));
        backend.setCurrentKey("sensor-1");
        for (int k : new int[] {5, -1, Integer.MAX_VALUE, 0, Integer.MIN_VALUE, -300, 300}) {
            s.put(k, "v" + k);
        }
        List<Integer> keys = new ArrayList<>();
        s.entries().forEach(e -> keys.add(e.getKey()));
        assertThat(keys).containsExactly(Integer.MIN_VALUE, -300, -1, 0, 5, 300, Integer.MAX_VALUE);
        assertThat(list(s.range(-1, 300))).extracting(Map.Entry::getKey).containsExactly(-1, 0, 5);
        assertThat(s.floorEntry(-2)).isEqualTo(Map.entry(-300, "v-300"));
        assertThat(s.ceilingEntry(6)).isEqualTo(Map.entry(300, "v300"));
    }

    private static Part owner(List<Part> parts, long key) {
        int group = KeyGroups.keyGroupFor(key, MAX_PARALLELISM);
        for (Part p : parts) {
            if (p.backend.keyGroupRange().contains(group)) {
                return p;
            }
        }
        throw new AssertionError("no part owns key group " + group);
    }

    private static Map.Entry<Long, Integer> entry(Map.Entry<Long, Timed> e) {
        return e == null ? null : Map.entry(e.getKey(), e.getValue().value);
    }

    private static List<Map.Entry<Long, Integer>> timed(Map<Long, Timed> m) {
        List<Map.Entry<Long, Integer>> out = new ArrayList<>();
        m.forEach((k, t) -> out.add(Map.entry(k, t.value)));
        return out;
    }

    private static <K, V> List<Map.Entry<K, V>> list(Iterable<Map.Entry<K, V>> entries) {
        List<Map.Entry<K, V>> out = new ArrayList<>();
        entries.forEach(out::add);
        return out;
    }
}
