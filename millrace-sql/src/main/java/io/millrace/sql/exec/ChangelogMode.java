package io.millrace.sql.exec;

import io.millrace.api.row.RowKind;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kinds of changes a physical node emits: only inserts for an append-only stream (filters, projections, window
 * aggregations that emit once when the window closes), or updates and deletes too for an updating one.
 */
public final class ChangelogMode {
    private static final ChangelogMode INSERT_ONLY = new ChangelogMode(EnumSet.of(RowKind.INSERT));
    private static final ChangelogMode ALL = new ChangelogMode(EnumSet.allOf(RowKind.class));

    private final Set<RowKind> kinds;

    private ChangelogMode(Set<RowKind> kinds) {
        this.kinds = kinds;
    }

    public static ChangelogMode insertOnly() {
        return INSERT_ONLY;
    }

    /** Inserts, updates (before and after) and deletes. */
    public static ChangelogMode all() {
        return ALL;
    }

    /** The mode of exactly {@code kinds}, which must hold at least one kind. */
    public static ChangelogMode of(Set<RowKind> kinds) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("a changelog mode needs at least one row kind");
        }
        if (kinds.size() == 1 && kinds.contains(RowKind.INSERT)) {
            return INSERT_ONLY;
        }
        return kinds.size() == RowKind.values().length ? ALL : new ChangelogMode(EnumSet.copyOf(kinds));
    }

    public boolean isInsertOnly() {
        return kinds.size() == 1 && kinds.contains(RowKind.INSERT);
    }

    public boolean contains(RowKind kind) {
        return kinds.contains(kind);
    }

    /** Like {@code [I]} or {@code [I,UB,UA,D]}. */
    @Override
    public String toString() {
        return kinds.stream().map(k -> switch (k) {
            case INSERT -> "I";
            case UPDATE_BEFORE -> "UB";
            case UPDATE_AFTER -> "UA";
            case DELETE -> "D";
        }).collect(Collectors.joining(",", "[", "]"));
    }
}
