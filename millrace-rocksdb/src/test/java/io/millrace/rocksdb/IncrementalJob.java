package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.CheckpointStorage;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.NativeKeyedStateSnapshot;
import io.millrace.runtime.state.Triggerable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One keyed operator ("op", maxParallelism 128) on RocksDB backends with incremental checkpoints, driven the
 * way the runtime drives it: random updates of a value state, a namespaced state and event-time timers, a
 * model of what the state must be, checkpoints uploaded and committed to real checkpoint storage, and restores
 * at any parallelism through {@link StateRestorer}. Tests close it.
 */
final class IncrementalJob implements AutoCloseable {
    static final int MAX_PARALLELISM = 128;
    static final String OPERATOR = "op";

    private final Path base;
    private final Random random = new Random(4711);
    final List<Subtask> subtasks = new ArrayList<>();
    final Map<Object, Long> totals = new HashMap<>();
    final Map<Object, Map<Long, Long>> buckets = new HashMap<>();
    final Set<Fired> timers = new HashSet<>();
    private final List<Subtask> opened = new ArrayList<>();

    record Fired(Object key, Long bucket, long timestamp) {}

    /** What a checkpoint committed, and the bytes its upload wrote. */
    record Taken(CheckpointMetadata metadata, long bytesWritten) {
        long referencedBytes() {
            return metadata.operators().get(OPERATOR).subtasks().stream().mapToLong(s -> s.nativeKeyedState().totalBytes()).sum();
        }

        Set<String> sharedPaths() {
            Set<String> paths = new HashSet<>();
            for (SubtaskSnapshot s : metadata.operators().get(OPERATOR).subtasks()) {
                s.nativeKeyedState().files().stream().filter(f -> f.shared()).forEach(f -> paths.add(f.handle().path()));
            }
            return paths;
        }
    }

    /** One subtask of the operator. */
    final class Subtask implements Triggerable<Long> {
        final int index;
        final int parallelism;
        final RocksDbKeyedStateBackend backend;
        final ValueState<Long> total;
        final NamespacedState<Long, long[]> sums;
        final List<Fired> fired = new ArrayList<>();

        Subtask(int index, int parallelism, StateRestorer restorer) throws Exception {
            this.index = index;
            this.parallelism = parallelism;
            this.backend = new RocksDbKeyedStateBackend(OPERATOR, KeyGroups.rangeFor(index, MAX_PARALLELISM, parallelism),
                    MAX_PARALLELISM, new ManualClock(0), TestBackends.CONFIG.withBaseDirectory(base));
            opened.add(this);
            if (restorer != null) {
                restorer.restoreKeyed(OPERATOR, backend, backend.keyGroupRange());
            }
            total = backend.stateStore().getState(new ValueStateDescriptor<>("total"));
            sums = backend.namespacedState("buckets");
            backend.timerService("timers", this);
        }

        @Override
        public void onEventTime(long timestamp, Long namespace) {
            fired.add(new Fired(backend.currentKey(), namespace, timestamp));
        }

        @Override
        public void onProcessingTime(long timestamp, Long namespace) {
            throw new AssertionError("no processing-time timers here");
        }
    }

    /** A job of {@code parallelism} fresh subtasks, working directories under {@code base}. */
    IncrementalJob(Path base, int parallelism) throws Exception {
        this.base = base;
        for (int i = 0; i < parallelism; i++) {
            subtasks.add(new Subtask(i, parallelism, null));
        }
    }

    /** {@code n} random updates over {@code keys} keys, each sent to the subtask that owns its key. */
    void update(int n, int keys, int valueBytes) {
        for (int i = 0; i < n; i++) {
            Object key = random.nextBoolean() ? "sensor-" + random.nextInt(keys) : (Object) random.nextInt(keys);
            Subtask owner = owner(subtasks, key);
            owner.backend.setCurrentKey(key);
            long v = random.nextInt(1_000);
            Long before = owner.total.value();
            owner.total.update(v + (before == null ? 0 : before));
            totals.merge(key, v, Long::sum);
            long bucket = random.nextInt(4);
            long[] acc = owner.sums.get(bucket);
            if (acc == null) {
                acc = new long[1 + valueBytes / 8];
                owner.sums.put(bucket, acc);
            }
            acc[0] += v;
            buckets.computeIfAbsent(key, k -> new HashMap<>()).merge(bucket, v, Long::sum);
            long at = random.nextInt(10_000);
            owner.backend.timerService("timers", owner).registerEventTimeTimer(bucket, at);
            timers.add(new Fired(key, bucket, at));
        }
        for (Subtask s : subtasks) {
            s.backend.setCurrentKey(null);
        }
    }

    /** Takes, uploads and commits checkpoint {@code id} of every subtask, as the runtime does. */
    Taken checkpoint(CheckpointStorage storage, long id) throws Exception {
        List<SubtaskSnapshot> parts = new ArrayList<>();
        long written = 0;
        for (Subtask s : subtasks) {
            KeyedStateSnapshot snapshot = s.backend.snapshot(id, false);
            assertThat(snapshot).isInstanceOf(NativeKeyedStateSnapshot.class);
            try {
                NativeKeyedStateSnapshot.Upload upload = ((NativeKeyedStateSnapshot) snapshot).upload(storage, id, OPERATOR + "-" + s.index);
                written += upload.bytesWritten();
                parts.add(new SubtaskSnapshot(s.index, s.backend.keyGroupRange().start(), null, null, null, upload.state()));
            } finally {
                snapshot.release();
            }
        }
        CheckpointMetadata metadata = new CheckpointMetadata(id, id, false, "job", MAX_PARALLELISM,
                Map.of(OPERATOR, new OperatorSnapshot(OPERATOR, OPERATOR, subtasks.size(), parts)));
        storage.commit(metadata);
        return new Taken(metadata, written);
    }

    /** New subtasks at {@code parallelism}, restored from {@code metadata}. */
    List<Subtask> restore(CheckpointStorage storage, CheckpointMetadata metadata, int parallelism) throws Exception {
        StateRestorer restorer = new StateRestorer(metadata, storage);
        List<Subtask> restored = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            restored.add(new Subtask(i, parallelism, restorer));
        }
        return restored;
    }

    /** What the model holds now, to compare with a restore later. */
    Expected expected() {
        Map<Object, Map<Long, Long>> b = new HashMap<>();
        buckets.forEach((k, v) -> b.put(k, new HashMap<>(v)));
        return new Expected(new HashMap<>(totals), b, new HashSet<>(timers));
    }

    record Expected(Map<Object, Long> totals, Map<Object, Map<Long, Long>> buckets, Set<Fired> timers) {}

    /** Asserts that {@code restored} holds exactly {@code expected}, and that every timer fires in the subtask owning its key. */
    static void assertHolds(List<Subtask> restored, Expected expected) throws Exception {
        Map<Object, Long> totals = new HashMap<>();
        Map<Object, Map<Long, Long>> buckets = new HashMap<>();
        for (Object key : expected.totals().keySet()) {
            Subtask owner = owner(restored, key);
            owner.backend.setCurrentKey(key);
            totals.put(key, owner.total.value());
            Map<Long, Long> b = new HashMap<>();
            owner.sums.forEach((bucket, acc) -> b.put(bucket, acc[0]));
            buckets.put(key, b);
        }
        long entries = 0;
        for (Subtask s : restored) {
            s.backend.setCurrentKey(null);
            entries += s.backend.entryCount();
            assertThat(s.backend.unclaimedRestoredNames()).isEmpty();
        }
        assertThat(totals).isEqualTo(expected.totals());
        assertThat(buckets).isEqualTo(expected.buckets());
        assertThat(entries).as("no rows of other key groups (one per key and state)").isEqualTo(2L * expected.totals().size());
        Set<Fired> fired = new HashSet<>();
        int count = 0;
        for (Subtask s : restored) {
            s.backend.advanceWatermark(Long.MAX_VALUE);
            for (Fired f : s.fired) {
                assertThat(owner(restored, f.key())).as("owner of %s", f.key()).isSameAs(s);
            }
            fired.addAll(s.fired);
            count += s.fired.size();
        }
        assertThat(count).isEqualTo(expected.timers().size());
        assertThat(fired).isEqualTo(expected.timers());
    }

    static Subtask owner(List<Subtask> subtasks, Object key) {
        int p = subtasks.size();
        return subtasks.get(KeyGroups.subtaskFor(KeyGroups.keyGroupFor(key, MAX_PARALLELISM), MAX_PARALLELISM, p));
    }

    @Override
    public void close() {
        opened.forEach(s -> s.backend.close());
    }
}
