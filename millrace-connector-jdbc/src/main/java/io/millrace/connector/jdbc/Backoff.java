package io.millrace.connector.jdbc;

import io.millrace.api.time.Clock;
import java.sql.SQLException;
import java.time.Duration;

/**
 * How long a sink waits for the database before it gives up: after a transient failure the attempt is repeated after
 * {@code initial}, then twice as long each time up to {@code max}, until {@code timeout} has passed since the first
 * failure; then the last failure fails the task. A sink's writes block meanwhile, which holds back its input.
 */
final class Backoff implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** One attempt, which may be repeated. */
    @FunctionalInterface
    interface Attempt<R> {
        R run() throws SQLException;
    }

    /** Called before each repetition, after a transient failure (to drop a broken connection). */
    @FunctionalInterface
    interface BeforeRetry {
        void run(SQLException failure);
    }

    private final Duration initial;
    private final Duration max;
    private final Duration timeout;

    Backoff(Duration initial, Duration max, Duration timeout) {
        this.initial = initial;
        this.max = max;
        this.timeout = timeout;
    }

    Duration timeout() {
        return timeout;
    }

    /**
     * Runs {@code attempt} until it succeeds, repeating it after transient failures ({@link SqlErrors#isTransient})
     * within the timeout; any other failure is thrown at once. {@code what} names the work in the final error.
     */
    <R> R run(Clock clock, String what, BeforeRetry beforeRetry, Attempt<R> attempt) throws SQLException {
        return run(clock, what, SqlErrors::isTransient, beforeRetry, attempt);
    }

    /** As {@link #run(Clock, String, BeforeRetry, Attempt)}, repeating after the failures {@code retryable} accepts. */
    <R> R run(Clock clock, String what, java.util.function.Predicate<SQLException> retryable, BeforeRetry beforeRetry,
            Attempt<R> attempt) throws SQLException {
        long firstFailure = 0;
        long delay = initial.toNanos();
        int attempts = 0;
        while (true) {
            try {
                attempts++;
                return attempt.run();
            } catch (SQLException e) {
                if (!retryable.test(e)) {
                    throw e;
                }
                long now = clock.nanoTime();
                if (firstFailure == 0) {
                    firstFailure = now;
                }
                beforeRetry.run(e);
                if (now - firstFailure + delay > timeout.toNanos()) {
                    throw new SQLException(what + ": the database did not answer within retryTimeout=" + timeout + " ("
                            + attempts + " attempts): " + SqlErrors.message(e), SqlErrors.state(e), e);
                }
                pause(delay);
                delay = Math.min(delay * 2, max.toNanos());
            }
        }
    }

    private static void pause(long nanos) throws SQLException {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to try the database again", "57014", e);
        }
    }
}
