package io.millrace.runtime.checkpoint;

import java.io.IOException;

/** A file of a checkpoint is missing, cut short, changed or unreadable; the message names the file. */
public final class CheckpointFileDamagedException extends IOException {
    private final String file;
    private final String problem;

    public CheckpointFileDamagedException(String file, String problem) {
        super(file + ": " + problem);
        this.file = file;
        this.problem = problem;
    }

    public CheckpointFileDamagedException(String file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
        this.problem = problem;
    }

    /** The damaged file, as it was named to the reader (relative to the checkpoint root where possible). */
    public String file() {
        return file;
    }

    /** What is wrong with it, e.g. {@code CRC mismatch}. */
    public String problem() {
        return problem;
    }
}
