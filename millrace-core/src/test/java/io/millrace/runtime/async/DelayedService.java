package io.millrace.runtime.async;

import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/**
 * A stand-in for an external service: answers each request on its own threads after a seeded random delay, with
 * {@code answer} of the input. Counts the requests in flight (from the call until the answer is handed over) and
 * the most seen at once.
 */
final class DelayedService implements AsyncFunction<Integer, Integer>, RichFunction {
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final AtomicInteger requests = new AtomicInteger();
    private final long seed;
    private final int maxDelayMicros;
    private final SerializableAnswer answer;
    private transient ScheduledExecutorService threads;
    private transient Random random;

    interface SerializableAnswer extends IntUnaryOperator, java.io.Serializable {}

    DelayedService(long seed, int maxDelayMicros, SerializableAnswer answer) {
        this.seed = seed;
        this.maxDelayMicros = maxDelayMicros;
        this.answer = answer;
    }

    @Override
    public void open(RuntimeContext context) {
        random = new Random(seed + context.subtaskIndex());
        threads = Executors.newScheduledThreadPool(3, r -> {
            Thread t = new Thread(r, "delayed-service");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void asyncInvoke(Integer input, ResultFuture<Integer> result) {
        requests.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        threads.schedule(() -> {
            inFlight.decrementAndGet();
            result.complete(List.of(answer.applyAsInt(input)));
        }, random.nextInt(maxDelayMicros), TimeUnit.MICROSECONDS);
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
