package io.millrace.connector.jdbc;

/**
 * The global ids of an exactly-once sink's prepared transactions: {@code <prefix>-<subtask>-<checkpoint>}, the
 * checkpoint being the one whose barrier prepared the transaction. A run restored from checkpoint {@code R} prepares
 * only for checkpoints after {@code R}, so a prepared transaction numbered above {@code R} belongs to no complete
 * checkpoint of the restored line, and one numbered {@code R} or below is among the committables of {@code R}.
 */
final class TransactionIds {
    private final String prefix;

    TransactionIds(String prefix) {
        this.prefix = prefix;
    }

    String prefix() {
        return prefix;
    }

    /** The subtask and checkpoint of an id of this prefix, or null when it is none. */
    long[] parse(String gid) {
        String head = prefix + "-";
        int dash = gid.lastIndexOf('-');
        if (!gid.startsWith(head) || dash < head.length()) {
            return null;
        }
        String subtask = gid.substring(head.length(), dash);
        if (subtask.isEmpty() || subtask.length() > 9 || !subtask.chars().allMatch(Character::isDigit)) {
            return null;
        }
        long number = numberOf(Integer.parseInt(subtask), gid);
        return number < 0 ? null : new long[] {Integer.parseInt(subtask), number};
    }

    String of(int subtask, long checkpointId) {
        return prefix + "-" + subtask + "-" + checkpointId;
    }

    /** A {@code LIKE} pattern matching every id of {@code subtask} (and maybe others, which {@link #numberOf} sorts out). */
    String likePatternOf(int subtask) {
        return (prefix + "-" + subtask + "-").replace("\\", "\\\\").replace("_", "\\_").replace("%", "\\%") + "%";
    }

    /** The checkpoint number of an id of {@code subtask}, or -1 when the id is not one of its ids. */
    long numberOf(int subtask, String gid) {
        String head = prefix + "-" + subtask + "-";
        if (!gid.startsWith(head)) {
            return -1;
        }
        String tail = gid.substring(head.length());
        if (tail.isEmpty() || tail.length() > 19 || !tail.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(tail);
    }
}
