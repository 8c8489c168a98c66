package io.millrace.connector.kafka;

import java.util.regex.Pattern;

/**
 * The transactional ids of an exactly-once {@link KafkaSink}: {@code <prefix>-<subtask>-<n>}, where {@code n} is the
 * number of the checkpoint whose barrier will prepare the transaction. A run restored from checkpoint {@code R}
 * numbers its first transaction {@code R + 1}, so every transaction a failed run left open after {@code R} has a
 * number above {@code R}, and the committables in checkpoint {@code R} have numbers at or below it.
 */
final class TransactionalIds {
    private final String prefix;

    TransactionalIds(String prefix) {
        this.prefix = prefix;
    }

    String of(int subtask, long n) {
        return prefix + "-" + subtask + "-" + n;
    }

    /** A regular expression (as the brokers' transaction listing takes it) for every id of one subtask. */
    String patternOf(int subtask) {
        StringBuilder b = new StringBuilder("^");
        for (char c : (prefix + "-" + subtask + "-").toCharArray()) {
            if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append("[0-9]+$").toString();
    }

    /** The number of an id of {@code subtask}, or -1 when the id is not one of its ids. */
    long numberOf(int subtask, String transactionalId) {
        String head = prefix + "-" + subtask + "-";
        if (!transactionalId.startsWith(head) || !Pattern.matches("[0-9]+", transactionalId.substring(head.length()))) {
            return -1;
        }
        return Long.parseLong(transactionalId.substring(head.length()));
    }
}
