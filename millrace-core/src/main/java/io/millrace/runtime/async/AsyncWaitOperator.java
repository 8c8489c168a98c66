package io.millrace.runtime.async;

import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.AsyncOptions;
import io.millrace.api.async.AsyncRetryStrategy;
import io.millrace.api.async.AsyncSpec;
import io.millrace.api.async.ResultFuture;
import io.millrace.runtime.operator.AbstractStreamOperator;
import io.millrace.runtime.operator.OneInputOperator;
import io.millrace.runtime.operator.OperatorContext;
import io.millrace.runtime.operator.Output;
import io.millrace.runtime.operator.UserFunctionException;
import io.millrace.runtime.operator.UserFunctions;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an {@link AsyncFunction}: every record starts a request; answers come back on other threads and re-enter as
 * mails ({@link OperatorContext#mailbox()}); a {@link ResultQueue} lets results and watermarks leave in the order the
 * options ask for.
 *
 * <p><b>Capacity.</b> At most {@code capacity} records wait for their results at once. A record that would exceed it
 * waits in {@link #processRecord} with {@link OperatorContext#runMailsUntil}, which lets the answers in while the
 * input stands still; {@link #endInput} waits the same way for all of them.
 *
 * <p><b>Time.</b> Timeouts and retry delays are due times on the pipeline's clock, fired by
 * {@link #advanceProcessingTime} (also while the operator waits for capacity).
 *
 * <p><b>Checkpoints.</b> The records still waiting are the operator state, one item each in input order
 * ({@link InFlightCodec}); at restore they are requested again, before any new input or watermark, with a fresh
 * count of attempts.
 */
public final class AsyncWaitOperator<IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputOperator<IN, OUT>, ResultQueue.Emitter<OUT> {
    private final AsyncFunction<IN, OUT> function;
    private final AsyncOptions options;
    private final AsyncRetryStrategy<OUT> retry;
    private final long timeoutMillis;
    private final int capacity;
    private final ResultQueue<OUT> results;
    /** Every record whose results have not left, in input order. */
    private final LinkedHashSet<AsyncRequest<IN, OUT>> waiting = new LinkedHashSet<>();
    private final PriorityQueue<Due> due = new PriorityQueue<>();
    private long dueSequence;
    private Executor mailbox;
    /** Records restored from a checkpoint and not yet requested again; null once they are. */
    private List<AsyncRequest<IN, OUT>> restored;

    /** A timeout (with its attempt) or a retry, due at {@code at} ms. */
    private record Due(long at, long sequence, AsyncRequest<?, ?> request, Attempt<?, ?> timeoutOf) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }

    @SuppressWarnings("unchecked")
    public AsyncWaitOperator(AsyncSpec<IN, OUT> spec) {
        this.function = spec.function();
        this.options = spec.options();
        this.retry = (AsyncRetryStrategy<OUT>) options.retryStrategy();
        this.timeoutMillis = Math.max(1, options.timeout().toMillis());
        this.capacity = options.capacity();
        this.results = options.mode() == AsyncOptions.OutputMode.ORDERED ? new OrderedResults<>(this) : new UnorderedResults<>(this);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void restoreOperatorState(List<Serializable> items) throws Exception {
        List<AsyncRequest<IN, OUT>> requests = new ArrayList<>(items.size());
        for (Serializable item : items) {
            InFlightCodec.InFlight r = InFlightCodec.decode(item);
            requests.add(new AsyncRequest<>((IN) r.value(), r.timestamp()));
        }
        restored = requests.isEmpty() ? null : requests;
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        mailbox = context.mailbox();
        UserFunctions.open(function, context);
        if (restored != null) {
            mailbox.execute(() -> { // unless a record or watermark comes first
                try {
                    requestRestored();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("operator '" + context.operatorName() + "' could not request its restored records again", e);
                }
            });
        }
    }

    @Override
    public void processRecord(IN value, long timestamp) throws Exception {
        requestRestored();
        start(new AsyncRequest<>(value, timestamp));
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        requestRestored();
        currentWatermark = watermark;
        metrics.watermark(watermark);
        results.addWatermark(watermark);
    }

    @Override
    public void advanceProcessingTime(long now) {
        Due d;
        while ((d = due.peek()) != null && d.at <= now) {
            due.poll();
            @SuppressWarnings("unchecked")
            AsyncRequest<IN, OUT> request = (AsyncRequest<IN, OUT>) d.request;
            if (d.timeoutOf == null) {
                attempt(request);
            } else {
                timedOut(request, d.timeoutOf);
            }
        }
    }

    @Override
    public void endInput() throws Exception {
        requestRestored();
        context.runMailsUntil(waiting::isEmpty);
    }

    @Override
    public List<? extends Serializable> snapshotOperatorState(long checkpointId) {
        List<Serializable> items = new ArrayList<>(waiting.size() + (restored == null ? 0 : restored.size()));
        for (AsyncRequest<IN, OUT> r : waiting) {
            items.add(InFlightCodec.encode(r.input, r.timestamp, context.operatorName()));
        }
        if (restored != null) {
            for (AsyncRequest<IN, OUT> r : restored) {
                items.add(InFlightCodec.encode(r.input, r.timestamp, context.operatorName()));
            }
        }
        return items;
    }

    @Override
    public void close() throws Exception {
        UserFunctions.close(function);
    }

    /** Records waiting for their results now (requests in flight or held for order); for tests. */
    public int waitingRecords() {
        return waiting.size();
    }

    /** Requests the restored records again, in their order, before anything else reaches the operator. */
    private void requestRestored() throws Exception {
        if (restored == null) {
            return;
        }
        List<AsyncRequest<IN, OUT>> requests = restored;
        restored = null;
        for (int i = 0; i < requests.size(); i++) {
            try {
                start(requests.get(i));
            } catch (Exception | Error e) {
                restored = new ArrayList<>(requests.subList(i + 1, requests.size()));
                throw e;
            }
        }
    }

    /** Waits for room, then takes the record in and starts its first attempt. */
    private void start(AsyncRequest<IN, OUT> request) throws Exception {
        if (waiting.size() >= capacity) {
            context.runMailsUntil(() -> waiting.size() < capacity);
        }
        waiting.add(request);
        results.add(request);
        attempt(request);
    }

    private void attempt(AsyncRequest<IN, OUT> request) {
        request.attempt++;
        Attempt<IN, OUT> attempt = new Attempt<>(this, request, request.attempt, false);
        due.add(new Due(context.clock().millis() + timeoutMillis, dueSequence++, request, attempt));
        try {
            function.asyncInvoke(request.input, attempt);
        } catch (Exception | LinkageError e) {
            attempt.completeExceptionally(e);
        }
    }

    /** The answer to one attempt (or to the fallback after a timeout); completions after the first are ignored. */
    private static final class Attempt<IN, OUT> implements ResultFuture<OUT> {
        final AsyncWaitOperator<IN, OUT> operator;
        final AsyncRequest<IN, OUT> request;
        final int number;
        final boolean fallback;
        final AtomicBoolean completed = new AtomicBoolean();

        Attempt(AsyncWaitOperator<IN, OUT> operator, AsyncRequest<IN, OUT> request, int number, boolean fallback) {
            this.operator = operator;
            this.request = request;
            this.number = number;
            this.fallback = fallback;
        }

        @Override
        public boolean complete(Collection<OUT> results) {
            if (!completed.compareAndSet(false, true)) {
                return false;
            }
            List<OUT> copy = results == null ? null : new ArrayList<>(results);
            operator.mailbox.execute(() -> operator.answered(this, copy, null));
            return true;
        }

        @Override
        public boolean completeExceptionally(Throwable error) {
            if (!completed.compareAndSet(false, true)) {
                return false;
            }
            Throwable e = error == null ? new NullPointerException("completeExceptionally(null)") : error;
            operator.mailbox.execute(() -> operator.answered(this, null, e));
            return true;
        }
    }

    /** On the task thread: an attempt completed with {@code values} or {@code error}. */
    private void answered(Attempt<IN, OUT> attempt, List<OUT> values, Throwable error) {
        AsyncRequest<IN, OUT> request = attempt.request;
        if (request.done || attempt.number != request.attempt) {
            return;
        }
        boolean retryable = !attempt.fallback;
        if (error == null && (values == null || values.contains(null))) {
            error = new NullPointerException("the result of the async function " + (values == null ? "is null" : "contains null"));
            retryable = false; // a broken result is a bug, not a passing failure of the service
        }
        if (error != null) {
            if (retryable && mayRetry(request) && retries(request, error)) {
                retryLater(request);
                return;
            }
            throw failure(request, error, attempt.fallback);
        }
        if (retryable && mayRetry(request) && retries(request, values)) {
            retryLater(request);
            return;
        }
        request.done = true;
        request.results = values;
        results.completed(request);
    }

    /** On the task thread: {@code attempt} got no answer in time. */
    private void timedOut(AsyncRequest<IN, OUT> request, Attempt<?, ?> attempt) {
        if (!attempt.completed.compareAndSet(false, true)) {
            return; // answered just in time: the answer is on its way as a mail
        }
        switch (options.timeoutPolicy()) {
            case RETRY:
                if (mayRetry(request)) {
                    retryLater(request);
                    return;
                }
                throw failure(request, timeout(request), false);
            case FALLBACK:
                Attempt<IN, OUT> fallback = new Attempt<>(this, request, request.attempt, true);
                try {
                    function.timeout(request.input, fallback);
                } catch (Exception | LinkageError e) {
                    throw UserFunctionException.of(context, request.input, e);
                }
                return;
            default:
                throw failure(request, timeout(request), false);
        }
    }

    private TimeoutException timeout(AsyncRequest<IN, OUT> request) {
        return new TimeoutException("no answer within " + timeoutMillis + " ms (" + attempts(request) + ")");
    }

    private String attempts(AsyncRequest<IN, OUT> request) {
        return "attempt " + request.attempt + " of " + retry.maxAttempts();
    }

    private boolean mayRetry(AsyncRequest<IN, OUT> request) {
        return request.attempt < retry.maxAttempts();
    }

    private boolean retries(AsyncRequest<IN, OUT> request, Throwable error) {
        try {
            return retry.retries(error);
        } catch (RuntimeException | LinkageError e) {
            throw UserFunctionException.of(context, request.input, e);
        }
    }

    private boolean retries(AsyncRequest<IN, OUT> request, List<OUT> values) {
        try {
            return retry.retries(values);
        } catch (RuntimeException | LinkageError e) {
            throw UserFunctionException.of(context, request.input, e);
        }
    }

    private void retryLater(AsyncRequest<IN, OUT> request) {
        long delay = retry.delayBefore(request.attempt + 1);
        due.add(new Due(context.clock().millis() + delay, dueSequence++, request, null));
    }

    private RuntimeException failure(AsyncRequest<IN, OUT> request, Throwable error, boolean fallback) {
        String what = fallback ? "the timeout fallback failed" : "the request failed on " + attempts(request);
        return UserFunctionException.of(context, request.input, new AsyncRequestException(what + ": " + error, error));
    }

    @Override
    public void emit(AsyncRequest<?, OUT> request) {
        waiting.remove(request);
        for (OUT value : request.results) {
            output.emit(value, request.timestamp);
        }
        request.results = null;
    }

    @Override
    public void emitWatermark(long watermark) {
        output.emitWatermark(watermark);
    }
}
