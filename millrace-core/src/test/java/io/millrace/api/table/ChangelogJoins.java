package io.millrace.api.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.functions.JoinFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Seeded random changelogs of two tables (primary key {@code id}, join key {@code k}), the batch join of the tables
 * they end with, and the table a join's output changelog describes, for comparing the two.
 */
public final class ChangelogJoins {
    public static final RowType SIDE = RowType.builder().field("id", FieldType.STRING).field("k", FieldType.BIGINT).field("v", FieldType.BIGINT).build();
    public static final RowType JOINED = RowType.builder().nullableField("leftId", FieldType.STRING).nullableField("rightId", FieldType.STRING)
            .nullableField("leftV", FieldType.BIGINT).nullableField("rightV", FieldType.BIGINT).build();
    public static final JoinFunction<Row, Row, Row> JOIN = ChangelogJoins::joined;

    private ChangelogJoins() {}

    /** The joined row of {@code l} and {@code r}, either null for a padded row. */
    public static Row joined(Row l, Row r) {
        return Row.of(JOINED, l == null ? null : l.getString("id"), r == null ? null : r.getString("id"),
                l == null ? null : l.getLong("v"), r == null ? null : r.getLong("v"));
    }

    /** A changelog of {@code changes} changes over {@code ids} rows whose join key is one of {@code keys}. */
    public static List<Row> randomChangelog(Random random, String prefix, int changes, int ids, int keys, Map<String, Row> table) {
        List<Row> log = new ArrayList<>();
        for (int i = 0; i < changes; i++) {
            String id = prefix + random.nextInt(ids);
            Row old = table.get(id);
            Row next = Row.of(SIDE, id, (long) random.nextInt(keys), (long) random.nextInt(4));
            if (old == null) {
                log.add(next);
                table.put(id, next);
            } else if (random.nextInt(10) < 6) {
                log.add(old.withKind(RowKind.UPDATE_BEFORE));
                log.add(next.withKind(RowKind.UPDATE_AFTER));
                table.put(id, next);
            } else {
                log.add(old.withKind(RowKind.DELETE));
                table.remove(id);
            }
        }
        return log;
    }

    /** "leftId|rightId|leftV|rightV" of a joined row. */
    public static String describe(Row joined) {
        return joined.getField(0) + "|" + joined.getField(1) + "|" + joined.getField(2) + "|" + joined.getField(3);
    }

    /** The batch join of two tables, as joined rows described by {@link #describe} to their count. */
    public static Map<String, Integer> batchJoin(Map<String, Row> left, Map<String, Row> right, boolean keepLeft, boolean keepRight) {
        Map<String, Integer> result = new TreeMap<>();
        for (Row l : left.values()) {
            boolean matched = false;
            for (Row r : right.values()) {
                if (l.getLong("k") == r.getLong("k")) {
                    matched = true;
                    result.merge(describe(joined(l, r)), 1, Integer::sum);
                }
            }
            if (!matched && keepLeft) {
                result.merge(describe(joined(l, null)), 1, Integer::sum);
            }
        }
        if (keepRight) {
            for (Row r : right.values()) {
                if (left.values().stream().noneMatch(l -> l.getLong("k") == r.getLong("k"))) {
                    result.merge(describe(joined(null, r)), 1, Integer::sum);
                }
            }
        }
        return result;
    }

    /**
     * Sums a join's output changelog in any order: each row's additions less its retractions; rows whose sum is 0
     * are left out. For outputs whose order is lost (files of several subtasks and runs).
     */
    public static Map<String, Integer> sum(List<String> described, List<Boolean> additions) {
        Map<String, Integer> result = new TreeMap<>();
        for (int i = 0; i < described.size(); i++) {
            result.merge(described.get(i), additions.get(i) ? 1 : -1, Integer::sum);
        }
        result.values().removeIf(n -> n == 0);
        return result;
    }

    /**
     * Applies a join's output changelog: {@code +I}/{@code +U} add a row, {@code -U}/{@code -D} remove an equal
     * one. Fails naming the record when it removes a row the result does not hold. Records of one joined row must
     * come in their order (they come from one key, so from one subtask).
     */
    public static Map<String, Integer> apply(List<Row> changelog) {
        Map<String, Integer> result = new TreeMap<>();
        for (Row r : changelog) {
            String d = describe(r);
            if (r.kind().isAddition()) {
                result.merge(d, 1, Integer::sum);
            } else {
                Integer n = result.get(d);
                assertThat(n).as("output " + r + " retracts a row the output does not hold").isNotNull();
                if (n == 1) {
                    result.remove(d);
                } else {
                    result.put(d, n - 1);
                }
            }
        }
        return result;
    }

    /** A fresh map for the table a changelog ends with. */
    public static Map<String, Row> table() {
        return new LinkedHashMap<>();
    }
}
