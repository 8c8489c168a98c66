package io.millrace.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * When and where a job takes checkpoints. Checkpointing is on once a directory is set. A job started
 * with the same directory resumes from the newest complete checkpoint in it, with no other flag (after a
 * start from a savepoint: from the newest one taken since, see {@link #restoreFrom(Path)}).
 *
 * <table>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>directory</td><td>none (off)</td><td>where checkpoints are written and found again</td></tr>
 * <tr><td>interval</td><td>10 s</td><td>time between the starts of two checkpoints</td></tr>
 * <tr><td>timeout</td><td>10 min</td><td>a checkpoint not complete by then is abandoned</td></tr>
 * <tr><td>minPause</td><td>0</td><td>least time between the end of one checkpoint and the start of the next</td></tr>
 * <tr><td>retained</td><td>3</td><td>complete checkpoints kept; older ones are deleted</td></tr>
 * <tr><td>mode</td><td>EXACTLY_ONCE</td><td>EXACTLY_ONCE aligns barriers; AT_LEAST_ONCE does not wait</td></tr>
 * <tr><td>allowNonRestoredState</td><td>false</td><td>whether a restore may drop state of operators that are gone</td></tr>
 * <tr><td>periodic</td><td>true</td><td>false: no checkpoints at the interval, only savepoints, requested and final ones</td></tr>
 * <tr><td>savepointDirectory</td><td>{@code <directory>/savepoints}</td><td>where savepoints are written</td></tr>
 * <tr><td>restoreFrom</td><td>none</td><td>a savepoint or checkpoint the job starts from (see {@link #restoreFrom(Path)})</td></tr>
 * </table>
 */
public final class CheckpointConfig implements java.io.Serializable {
    /** Whether operators with several inputs wait for the barrier on every input before snapshotting. */
    public enum Mode {
        EXACTLY_ONCE,
        AT_LEAST_ONCE
    }

    private String directory;
    private Duration interval = Duration.ofSeconds(10);
    private Duration timeout = Duration.ofMinutes(10);
    private Duration minPause = Duration.ZERO;
    private int retained = 3;
    private Mode mode = Mode.EXACTLY_ONCE;
    private boolean allowNonRestoredState;
    private boolean periodic = true;
    private String savepointDirectory;
    private String restoreFrom;

    public boolean enabled() {
        return directory != null;
    }

    public Path directory() {
        return directory == null ? null : Path.of(directory);
    }

    public CheckpointConfig directory(Path value) {
        this.directory = Objects.requireNonNull(value, "checkpoint directory").toAbsolutePath().toString();
        return this;
    }

    public Duration interval() {
        return interval;
    }

    public CheckpointConfig interval(Duration value) {
        this.interval = positive("checkpoint interval", value);
        return this;
    }

    public Duration timeout() {
        return timeout;
    }

    public CheckpointConfig timeout(Duration value) {
        this.timeout = positive("checkpoint timeout", value);
        return this;
    }

    public Duration minPause() {
        return minPause;
    }

    public CheckpointConfig minPause(Duration value) {
        Objects.requireNonNull(value, "checkpoint minPause");
        if (value.isNegative()) {
            throw new IllegalArgumentException("option 'checkpoint minPause' must be zero or positive, was " + value);
        }
        this.minPause = value;
        return this;
    }

    public int retained() {
        return retained;
    }

    public CheckpointConfig retained(int value) {
        if (value < 1 || value > 1000) {
            throw new IllegalArgumentException("option 'checkpoint retained' must be between 1 and 1000, was " + value);
        }
        this.retained = value;
        return this;
    }

    public Mode mode() {
        return mode;
    }

    public CheckpointConfig mode(Mode value) {
        this.mode = Objects.requireNonNull(value, "checkpoint mode");
        return this;
    }

    /** Whether a restore may drop the state of operators the job no longer has (default: refuse, naming them). */
    public boolean allowNonRestoredState() {
        return allowNonRestoredState;
    }

    public CheckpointConfig allowNonRestoredState(boolean value) {
        this.allowNonRestoredState = value;
        return this;
    }

    /** Whether checkpoints are taken at the interval (default true). Savepoints work either way. */
    public boolean periodic() {
        return periodic;
    }

    /**
     * Turns checkpoints at the interval on or off. Off, the directory still receives savepoints, the
     * checkpoints asked for with {@link JobHandle#triggerCheckpoint()} and the final checkpoint of a
     * bounded job; a failed job restarts from the newest of those.
     */
    public CheckpointConfig periodic(boolean value) {
        this.periodic = value;
        return this;
    }

    /** Where savepoints go; by default {@code <directory>/savepoints}, or null while no directory is set. */
    public Path savepointDirectory() {
        if (savepointDirectory != null) {
            return Path.of(savepointDirectory);
        }
        return directory == null ? null : Path.of(directory).resolve("savepoints");
    }

    public CheckpointConfig savepointDirectory(Path value) {
        this.savepointDirectory = Objects.requireNonNull(value, "savepoint directory").toAbsolutePath().toString();
        return this;
    }

    /** The savepoint or checkpoint the job starts from, or null. */
    public Path restoreFrom() {
        return restoreFrom == null ? null : Path.of(restoreFrom);
    }

    /**
     * Starts the job from a savepoint or a checkpoint: its directory, or its {@code _metadata} file. Needs
     * a checkpoint {@link #directory}. The checkpoint directory remembers the savepoint it started from;
     * from then on, every start (a restart after a failure, or the process started again with the same
     * options) resumes from the newest complete checkpoint taken since, and from the savepoint itself
     * while there is none. Checkpoint ids continue after the savepoint's id (and after every id already in
     * the directory). Another savepoint given later starts a new line.
     */
    public CheckpointConfig restoreFrom(Path savepointOrCheckpoint) {
        this.restoreFrom = Objects.requireNonNull(savepointOrCheckpoint, "restoreFrom").toAbsolutePath().normalize().toString();
        return this;
    }

    private static Duration positive(String option, Duration value) {
        Objects.requireNonNull(value, option);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("option '" + option + "' must be positive, was " + value);
        }
        return value;
    }

    CheckpointConfig copy() {
        CheckpointConfig c = new CheckpointConfig();
        c.directory = directory;
        c.interval = interval;
        c.timeout = timeout;
        c.minPause = minPause;
        c.retained = retained;
        c.mode = mode;
        c.allowNonRestoredState = allowNonRestoredState;
        c.periodic = periodic;
        c.savepointDirectory = savepointDirectory;
        c.restoreFrom = restoreFrom;
        return c;
    }
}
