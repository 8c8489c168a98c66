package io.millrace.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition that another thread makes true, with a bound instead of a fixed sleep. */
public final class Await {
    private static final Duration BOUND = Duration.ofSeconds(20);

    private Await() {}

    /** Returns once {@code condition} holds; fails naming {@code what} after 20 s. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, BOUND, condition);
    }

    /** Returns once {@code condition} holds; fails naming {@code what} after {@code bound}. */
    public static void until(String what, Duration bound, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not reached within " + bound.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(200_000);
        }
    }
}
