package io.millrace.runtime.broadcast;

import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReadOnlyBroadcastState;
import io.millrace.runtime.checkpoint.VersionedBytes;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The broadcast states of one operator subtask, one per descriptor given to {@code broadcast(..)}, by name.
 *
 * <p><b>Checkpoints.</b> Every subtask holds the same entries, so only subtask 0 stores them, one
 * {@link VersionedBytes#BROADCAST_STATE} item per non-empty state; a restore hands those items to every subtask, at
 * whatever parallelism, and each subtask fills its maps from them. A restored state that no descriptor names any more
 * fails the restore, naming it. Task thread only.
 */
final class BroadcastStates {
    private final String operatorName;
    private final Map<String, BroadcastStateMap<Object, Object>> states = new LinkedHashMap<>();

    BroadcastStates(List<MapStateDescriptor<?, ?>> descriptors, String operatorName) {
        this.operatorName = operatorName;
        for (MapStateDescriptor<?, ?> d : descriptors) {
            states.put(d.name(), new BroadcastStateMap<>(d.name(), operatorName));
        }
    }

    @SuppressWarnings("unchecked")
    <K, V> BroadcastState<K, V> writable(MapStateDescriptor<K, V> descriptor) {
        return (BroadcastState<K, V>) (BroadcastState<?, ?>) find(descriptor);
    }

    @SuppressWarnings("unchecked")
    <K, V> ReadOnlyBroadcastState<K, V> readOnly(MapStateDescriptor<K, V> descriptor) {
        return (ReadOnlyBroadcastState<K, V>) (ReadOnlyBroadcastState<?, ?>) find(descriptor).readOnly();
    }

    private BroadcastStateMap<Object, Object> find(MapStateDescriptor<?, ?> descriptor) {
        BroadcastStateMap<Object, Object> s = states.get(descriptor.name());
        if (s == null) {
            throw new IllegalArgumentException("operator '" + operatorName + "' has no broadcast state '" + descriptor.name()
                    + "': it has " + states.keySet() + ", the descriptors given to broadcast(..)");
        }
        return s;
    }

    /** What subtask {@code subtask} stores at a checkpoint: the non-empty states of subtask 0, nothing of the others. */
    List<Serializable> snapshot(int subtask) throws IOException {
        List<Serializable> items = new ArrayList<>();
        if (subtask != 0) {
            return items;
        }
        for (BroadcastStateMap<Object, Object> s : states.values()) {
            if (!s.isEmpty()) {
                items.add(BroadcastStateCodec.encode(s.name(), s.entries(), operatorName));
            }
        }
        return items;
    }

    /** Fills the states from restored items; other kinds of items are refused. */
    void restore(List<Serializable> items) throws IOException {
        for (Serializable item : items) {
            if (!(item instanceof VersionedBytes v) || v.kind() != VersionedBytes.BROADCAST_STATE) {
                throw new IOException("operator '" + operatorName + "': the checkpoint holds " + describe(item)
                        + " where broadcast state was expected (was another kind of operator given this operator's uid?)");
            }
            BroadcastStateCodec.Decoded d = BroadcastStateCodec.decode(v, operatorName);
            BroadcastStateMap<Object, Object> s = states.get(d.name());
            if (s == null) {
                throw new IllegalStateException("operator '" + operatorName + "': the checkpoint holds broadcast state '" + d.name()
                        + "', which the job no longer declares (it declares " + states.keySet() + "); pass its descriptor to"
                        + " broadcast(..) again, or start without the checkpoint");
            }
            s.entries().clear();
            s.entries().putAll(d.entries());
        }
    }

    private static String describe(Serializable item) {
        return item instanceof VersionedBytes v ? "an encoded item of kind " + v.kind() : item.getClass().getName();
    }
}
