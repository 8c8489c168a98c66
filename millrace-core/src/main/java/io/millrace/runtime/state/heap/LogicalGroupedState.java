package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.LogicalSection;
import io.millrace.runtime.state.heap.GroupedState.LogicalForm;
import io.millrace.runtime.state.heap.GroupedState.LogicalGroup;
import io.millrace.runtime.state.heap.GroupedState.LogicalTimer;
import io.millrace.runtime.state.heap.KeyGroupSection.RestoredTimer;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import java.io.NotSerializableException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link GroupedState} in its canonical form ({@link GroupedState#logicalForm}): written into a savepoint's key
 * group sections as ordinary keyed states and timer services, and taken back from such sections, whichever backend
 * wrote them. Task thread (a savepoint captures every group on the task thread, see
 * {@link HeapKeyedStateBackend#snapshot(long, boolean)}).
 */
final class LogicalGroupedState {
    private LogicalGroupedState() {}

    /**
     * Writes key group {@code keyGroup} of {@code capture}: the blocks of the form's states into {@code states} and
     * of its timer services into {@code timers}, the one encoded with {@code shapes}. Fails naming the state when a
     * value cannot be serialized.
     */
    static void write(int keyGroup, String name, LogicalForm form, GroupedState.Capture capture, ShapeTable shapes,
            ByteWriter states, ByteWriter timers) throws NotSerializableException {
        LogicalGroup group = capture.writeLogical(keyGroup);
        ClassLoader loader = StateSerializer.userClassLoader();
        StateSerializer keys = StateSerializer.forKeys(shapes, loader, null);
        try {
            for (Map.Entry<String, String> s : form.states().entrySet()) {
                StateSerializer values = StateSerializer.forValues(shapes, s.getKey(), loader, null);
                Map<Object, Object> entries = group.states().getOrDefault(s.getKey(), Map.of());
                LogicalSection.writeStateHeader(states, s.getKey(), s.getValue(), false, entries.size());
                boolean namespaced = s.getValue().equals(LogicalSection.NAMESPACED);
                for (Map.Entry<Object, Object> e : entries.entrySet()) {
                    keys.write(e.getKey(), states);
                    if (namespaced) {
                        Map<?, ?> byNamespace = (Map<?, ?>) e.getValue();
                        states.writeVarInt(byNamespace.size());
                        for (Map.Entry<?, ?> n : byNamespace.entrySet()) {
                            keys.write(n.getKey(), states);
                            values.write(n.getValue(), states);
                        }
                    } else {
                        values.write(e.getValue(), states);
                    }
                }
            }
            for (String service : form.timerServices()) {
                List<LogicalTimer> list = group.timers().getOrDefault(service, List.of());
                timers.writeString(service);
                timers.writeVarInt(list.size());
                long sequence = 0;
                for (LogicalTimer t : list) {
                    keys.write(t.key(), timers);
                    keys.write(t.namespace(), timers);
                    LogicalSection.writeTimerTail(timers, t.timestamp(), t.eventTime(), sequence++);
                }
            }
        } catch (IllegalArgumentException x) {
            throw new NotSerializableException("state '" + name + "' holds a value that cannot be written to a savepoint: "
                    + x.getMessage());
        }
    }

    /** Whether a restore holds anything of {@code form}. */
    static boolean restored(LogicalForm form, Map<String, RestoredState> states, Map<String, Map<Integer, List<RestoredTimer>>> timers) {
        for (String s : form.states().keySet()) {
            if (states.containsKey(s)) {
                return true;
            }
        }
        for (String t : form.timerServices()) {
            if (timers.containsKey(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Hands what a restore read of {@code form} to {@code into}, key group by key group of {@code range}, and removes
     * it from {@code states} and {@code timers}. Fails naming the operator and state when a restored state has
     * another kind than the form's.
     */
    static void adopt(String name, GroupedState into, LogicalForm form, Map<String, RestoredState> states,
            Map<String, Map<Integer, List<RestoredTimer>>> timers, KeyGroupRange range, String operator) {
        for (Map.Entry<String, String> s : form.states().entrySet()) {
            RestoredState r = states.get(s.getKey());
            if (r != null && !r.kind.equals(s.getValue())) {
                throw RestoredState.kindMismatch(operator, s.getKey(), s.getValue(), r.kind);
            }
        }
        String context = "state '" + name + "'" + (operator != null ? " of operator '" + operator + "'" : "");
        for (int keyGroup = range.start(); keyGroup <= range.end(); keyGroup++) {
            Map<String, Map<Object, Object>> groupStates = new HashMap<>();
            boolean any = false;
            for (String s : form.states().keySet()) {
                RestoredState r = states.get(s);
                if (r == null) {
                    continue;
                }
                Map<Object, Object> entries = new HashMap<>();
                for (RestoredState.Chunk chunk : r.chunks(keyGroup)) {
                    SectionReader.decode(r, chunk, operator, (key, value, expiry) -> entries.put(key, value));
                }
                any |= !entries.isEmpty();
                groupStates.put(s, entries);
            }
            Map<String, List<LogicalTimer>> groupTimers = new HashMap<>();
            for (String service : form.timerServices()) {
                Map<Integer, List<RestoredTimer>> byGroup = timers.get(service);
                List<LogicalTimer> list = new ArrayList<>();
                for (RestoredTimer t : byGroup == null ? List.<RestoredTimer>of() : byGroup.getOrDefault(keyGroup, List.of())) {
                    list.add(new LogicalTimer(t.key(), t.namespace(), t.timestamp(), t.eventTime()));
                }
                any |= !list.isEmpty();
                groupTimers.put(service, list);
            }
            if (any) {
                into.restoreLogical(keyGroup, new LogicalGroup(groupStates, groupTimers), context);
            }
        }
        form.states().keySet().forEach(states::remove);
        form.timerServices().forEach(timers::remove);
    }
}
