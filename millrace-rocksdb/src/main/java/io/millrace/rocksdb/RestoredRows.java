package io.millrace.rocksdb;

import io.millrace.rocksdb.KeyGroupRows.StatePart;
import io.millrace.rocksdb.KeyGroupRows.TimerPart;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Receives the sections of a checkpoint for a {@link RocksDbKeyedStateBackend}: rows go straight into the
 * column families. A state already created gets rows converted to its TTL setting; one not created yet is
 * remembered as checkpointed (kind, TTL) until the operator creates it by name ({@link #claimState}),
 * and snapshots meanwhile include it as it is. Timers of a created service go through its queues, others
 * wait in their columns until the service is created. Task thread only.
 */
final class RestoredRows implements KeyGroupRows.Target {
    private static final byte[] NO_VALUE = new byte[0];

    private final RocksDbKeyedStateBackend backend;
    /** Restored states not created yet, by name: how they were checkpointed. */
    private final Map<String, Checkpointed> states = new LinkedHashMap<>();
    /** Restored timer services not created yet. */
    private final Set<String> timerServices = new LinkedHashSet<>();

    /** Where the rows of the state or timer service being read go. */
    private BytesColumn column;
    private StateColumn created;
    private boolean rowsHaveTtl;
    private BytesColumn timerIndex;
    private RocksTimerService<?> createdService;

    private record Checkpointed(String kind, boolean ttl) {}

    RestoredRows(RocksDbKeyedStateBackend backend) {
        this.backend = backend;
    }

    @Override
    public void schemaRow(byte[] key, byte[] value) {
        restoreSchemaRow(key, value);
    }

    @Override
    public void beginState(String name, String kind, boolean ttl) {
        rowsHaveTtl = ttl;
        created = backend.createdState(name);
        if (created != null) {
            checkKind(name, kind, created.kind, backend.operatorName());
            column = created.bytes();
            created.noteRestoredRows();
            return;
        }
        Checkpointed before = states.putIfAbsent(name, new Checkpointed(kind, ttl));
        if (before != null && (!before.kind.equals(kind) || before.ttl != ttl)) {
            throw new IllegalStateException("state '" + name + "' was checkpointed as " + describe(before.kind, before.ttl)
                    + " in one key group and as " + describe(kind, ttl) + " in another");
        }
        column = backend.stateColumn(name);
    }

    @Override
    public void stateRow(byte[] key, byte[] value) {
        column.put(key, created == null ? value : created.convertRow(value, rowsHaveTtl));
    }

    @Override
    public void beginTimers(String service) {
        createdService = backend.timers().created(service);
        if (createdService == null) {
            column = backend.timers().timerColumn(service);
            timerIndex = backend.timers().timerIndex(service);
            timerServices.add(service);
        }
    }

    @Override
    public void timerRow(byte[] row) {
        if (createdService != null) {
            createdService.restore(row);
        } else {
            column.put(row, NO_VALUE);
            timerIndex.put(RocksTimerQueue.indexRow(row), NO_VALUE);
        }
    }

    /** A state is being created: checks the kind of its restored rows and converts them to its TTL setting. */
    void claimState(StateColumn state) {
        Checkpointed c = states.remove(state.name);
        if (c != null) {
            checkKind(state.name, c.kind, state.kind, backend.operatorName());
            state.adoptRestoredRows(c.ttl);
        }
    }

    /** A timer service is being created; it finds its rows in its columns. */
    void claimTimers(String service) {
        timerServices.remove(service);
    }

    /** Adds the restored states not created yet, as checkpointed, to a snapshot's list. */
    void addUnclaimedStates(List<StatePart> parts) {
        for (Map.Entry<String, Checkpointed> e : states.entrySet()) {
            parts.add(new StatePart(e.getKey(), e.getValue().kind, e.getValue().ttl, backend.stateColumn(e.getKey())));
        }
    }

    void addUnclaimedTimers(List<TimerPart> parts) {
        for (String service : timerServices) {
            parts.add(new TimerPart(service, backend.timers().timerIndex(service)));
        }
    }

    /** Names of restored states and timer services not created yet, sorted. */
    Set<String> unclaimedNames() {
        Set<String> names = new TreeSet<>(states.keySet());
        names.addAll(timerServices);
        return names;
    }

    void clear() {
        states.clear();
        timerServices.clear();
        column = null;
        created = null;
        timerIndex = null;
        createdService = null;
    }

    private static void checkKind(String name, String checkpointed, String registered, String operator) {
        if (!checkpointed.equals(registered)) {
            throw new IllegalStateException("operator '" + operator + "', state '" + name + "': the job registers it as "
                    + registered + " state, but the checkpoint or savepoint holds " + checkpointed + " state under that"
                    + " name; register it as before, or give the new state another name");
        }
    }

    private static String describe(String kind, boolean ttl) {
        return kind + (ttl ? " state with TTL" : " state without TTL");
    }

    /**
     * Stores a row of a restored schema dictionary; a shape now used by a created state's values, or by
     * keys, is checked at once.
     */
    private void restoreSchemaRow(byte[] key, byte[] value) {
        String use = backend.schema.restore(key, value);
        if (use == null) {
            return;
        }
        int id = SchemaColumn.idOfUseRow(key);
        if (use.isEmpty()) {
            backend.schema.check(id, true, backend.loader, backend.describeKeys());
        } else if (backend.states().contains(use)) {
            backend.schema.check(id, false, backend.loader, backend.describeState(use));
        }
    }
}
