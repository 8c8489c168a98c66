package io.millrace.runtime.checkpoint;

import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The savepoint (or checkpoint) that the checkpoints of a directory descend from: a job started from
 * {@code savepoint}, whose id was {@code savepointId}, took checkpoints from {@code firstCheckpointId} on.
 * Checkpoints in the directory with a smaller id belong to an earlier line and are never restored while
 * this lineage is recorded.
 */
public record RestoreLineage(String savepoint, long savepointId, long firstCheckpointId) {
    static final String FILE = "_restored-from";

    byte[] toBytes() {
        return ("savepoint=" + savepoint.replace("\\", "\\\\") + "\nsavepointId=" + savepointId
                + "\nfirstCheckpointId=" + firstCheckpointId + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Parses what {@link #toBytes} wrote; fails with an IllegalArgumentException naming what is missing. */
    static RestoreLineage parse(byte[] bytes) {
        Properties p = new Properties();
        try {
            p.load(new java.io.StringReader(new String(bytes, StandardCharsets.UTF_8)));
            return new RestoreLineage(require(p, "savepoint"), Long.parseLong(require(p, "savepointId")),
                    Long.parseLong(require(p, "firstCheckpointId")));
        } catch (java.io.IOException | NumberFormatException e) {
            throw new IllegalArgumentException(FILE + " is not readable: " + e.getMessage(), e);
        }
    }

    private static String require(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException(FILE + " has no '" + key + "'");
        }
        return v;
    }
}
