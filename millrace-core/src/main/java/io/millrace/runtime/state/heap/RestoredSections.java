package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.heap.KeyGroupSection.RestoredTimer;
import io.millrace.runtime.timer.HeapTimerService;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a heap backend restored and nobody has claimed yet: states (entries still encoded) and timers, by
 * name. A state, grouped state or timer service created by name takes its part over; what stays unclaimed
 * goes into the next snapshot as it came. Task thread only.
 */
final class RestoredSections {
    /** Named in restore failures; null when unknown. */
    private final String operatorName;
    private final Map<String, RestoredState> states = new HashMap<>();
    private final Map<String, Map<Integer, List<RestoredTimer>>> timers = new HashMap<>();

    RestoredSections(String operatorName) {
        this.operatorName = operatorName;
    }

    /** Reads one key group's section; see {@link SectionReader#read}. */
    void read(DataInputStream in, int keyGroup) throws IOException {
        SectionReader.read(in, keyGroup, operatorName, states, timers);
    }

    /** Hands the restored entries of state {@code name}, if any, to its new table. */
    void claimState(String name, StateTable table, String kind, long now) {
        RestoredState restored = states.get(name);
        if (restored != null) {
            restored.adoptInto(table, kind, now, operatorName);
            states.remove(name);
        }
    }

    /** Hands the restored timers of the service's name, if any, to it, in their original order. */
    @SuppressWarnings("unchecked")
    <N> void claimTimers(HeapTimerService<N> service) {
        Map<Integer, List<RestoredTimer>> restored = timers.remove(service.name());
        if (restored == null) {
            return;
        }
        List<RestoredTimer> all = new ArrayList<>();
        restored.values().forEach(all::addAll);
        all.sort(Comparator.comparingLong(RestoredTimer::sequence));
        for (RestoredTimer t : all) {
            service.restoreTimer(t.key(), t.keyGroup(), (N) t.namespace(), t.timestamp(), t.eventTime());
        }
    }

    /**
     * Hands what was restored for a grouped state to it: its own payloads, or its canonical form's states and
     * timers (from a savepoint). Fails when the name was checkpointed as another kind of state.
     */
    void claimGrouped(String name, GroupedState state, KeyGroupRange range) {
        GroupedState.LogicalForm form = state.logicalForm();
        RestoredState restored = states.get(name);
        if (restored == null || !restored.kind.equals(KeyGroupSection.GROUPED)) {
            if (form != null && LogicalGroupedState.restored(form, states, timers)) {
                LogicalGroupedState.adopt(name, state, form, states, timers, range, operatorName);
            } else if (restored != null) {
                throw RestoredState.kindMismatch(operatorName, name, KeyGroupSection.GROUPED, restored.kind);
            }
            return;
        }
        states.remove(name);
        String context = "state '" + name + "'" + (operatorName != null ? " of operator '" + operatorName + "'" : "");
        for (int group = range.start(); group <= range.end(); group++) {
            for (RestoredState.Chunk chunk : restored.chunks(group)) {
                SectionReader.decodeGrouped(chunk, group, context, state);
            }
        }
    }

    /** The unclaimed states, for a snapshot. */
    List<RestoredState> unclaimedStates() {
        return List.copyOf(states.values());
    }

    /** The unclaimed timers by service and key group, for a snapshot. */
    Map<String, Map<Integer, List<RestoredTimer>>> unclaimedTimers() {
        return Map.copyOf(timers);
    }

    Set<String> unclaimedNames() {
        Set<String> names = new TreeSet<>(states.keySet());
        names.addAll(timers.keySet());
        return names;
    }

    void clear() {
        states.clear();
        timers.clear();
    }
}
