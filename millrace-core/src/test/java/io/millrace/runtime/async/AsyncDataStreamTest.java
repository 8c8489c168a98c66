package io.millrace.runtime.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.async.AsyncDataStream;
import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.AsyncOptions;
import io.millrace.api.async.AsyncOptions.TimeoutPolicy;
import io.millrace.api.async.AsyncRetryStrategy;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.sink.CollectSink;
import io.millrace.testing.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Async I/O in running pipelines: order, capacity, timeouts and their policies, retries, failures, cancellation. */
class AsyncDataStreamTest {
    private static final long SEED = 0xA5_1C_10L;

    private static List<Integer> numbers(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    private static Pipeline pipeline() {
        return Pipeline.create(new PipelineConfig().parallelism(1));
    }

    /** Per input: how many attempts the function saw. */
    static final class Attempts implements java.io.Serializable {
        final Map<Integer, AtomicInteger> byInput = new ConcurrentHashMap<>();

        int next(int input) {
            return byInput.computeIfAbsent(input, k -> new AtomicInteger()).incrementAndGet();
        }

        int of(int input) {
            AtomicInteger n = byInput.get(input);
            return n == null ? 0 : n.get();
        }
    }

    @Test
    void orderedWait_whenAnswersComeInRandomOrder_thenResultsKeepTheInputOrderAndNoMoreThanTheCapacityIsInFlight() {
        DelayedService service = new DelayedService(SEED, 2_000, x -> x * 10);
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.orderedWait(p.fromCollection(numbers(3_000)), service, Duration.ofSeconds(30), 16).sinkTo(out);

        p.execute("ordered");

        assertThat(out.results()).isEqualTo(numbers(3_000).stream().map(x -> x * 10).toList());
        assertThat(service.maxInFlight.get()).as("requests in flight at once").isBetween(2, 16);
    }

    @Test
    void unorderedWait_whenAnswersComeInRandomOrder_thenResultsAreTheSameMultisetInAnotherOrder() {
        DelayedService service = new DelayedService(SEED + 1, 2_000, x -> x + 1);
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.unorderedWait(p.fromCollection(numbers(3_000)), service, Duration.ofSeconds(30), 32).sinkTo(out);

        p.execute("unordered");

        List<Integer> expected = numbers(3_000).stream().map(x -> x + 1).toList();
        assertThat(out.results()).as("answers leave as they come").isNotEqualTo(expected);
        List<Integer> sorted = new ArrayList<>(out.results());
        Collections.sort(sorted);
        assertThat(sorted).isEqualTo(expected);
        assertThat(service.maxInFlight.get()).isBetween(2, 32);
    }

    @Test
    void asyncOnAKeyedStreamInParallel_whenEachSubtaskHasItsCapacity_thenEveryRecordIsAnsweredOnce() {
        DelayedService service = new DelayedService(SEED + 2, 1_000, x -> -x);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(3));
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.apply(p.fromCollection(numbers(2_000)).keyBy(x -> x % 11), service, AsyncOptions.unordered().capacity(5))
                .name("keyed-lookup").sinkTo(out);

        p.execute("keyed");

        assertThat(out.results()).containsExactlyInAnyOrderElementsOf(numbers(2_000).stream().map(x -> -x).toList());
    }

    @Test
    void twoChainedAsyncOperators_whenBothAreFull_thenNeitherBlocksTheOther() {
        DelayedService first = new DelayedService(SEED + 4, 1_500, x -> x * 3);
        DelayedService second = new DelayedService(SEED + 5, 1_500, x -> x + 7);
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        DataStream<Integer> tripled = AsyncDataStream.unorderedWait(p.fromCollection(numbers(1_500)), first, Duration.ofSeconds(30), 3);
        AsyncDataStream.orderedWait(tripled, second, Duration.ofSeconds(30), 2).sinkTo(out);

        p.execute("two async operators in one chain");

        assertThat(out.results()).containsExactlyInAnyOrderElementsOf(numbers(1_500).stream().map(x -> x * 3 + 7).toList());
        assertThat(first.maxInFlight.get()).isLessThanOrEqualTo(3);
        assertThat(second.maxInFlight.get()).isLessThanOrEqualTo(2);
    }

    @Test
    void capacity_whenAnswersAreSlow_thenTheRequestsInFlightNeverExceedIt() {
        Random random = new Random(SEED);
        int capacity = 1 + random.nextInt(5);
        DelayedService service = new DelayedService(SEED + 3, 3_000, x -> x);
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.orderedWait(p.fromCollection(numbers(400)), service, Duration.ofSeconds(30), capacity).sinkTo(out);

        p.execute("capacity " + capacity);

        assertThat(out.results()).isEqualTo(numbers(400));
        assertThat(service.maxInFlight.get()).as("capacity " + capacity).isBetween(Math.min(2, capacity), capacity);
        assertThat(service.requests.get()).isEqualTo(400);
    }

    /** Answers at once, except the inputs {@code silent} accepts, which it never answers. */
    private static AsyncFunction<Integer, Integer> silentFor(java.util.function.IntPredicate silent, Attempts attempts) {
        return (x, result) -> {
            attempts.next(x);
            if (!silent.test(x)) {
                result.completeWith(x);
            }
        };
    }

    @Test
    void timeoutPolicyFail_whenARecordGetsNoAnswer_thenTheJobFailsNamingTheOperatorTheRecordAndTheTimeout() {
        Attempts attempts = new Attempts();
        Pipeline p = pipeline();
        AsyncDataStream.orderedWait(p.fromCollection(numbers(50)), silentFor(x -> x == 37, attempts), Duration.ofMillis(100), 10)
                .name("asset-lookup").sinkTo(new CollectSink<>());

        assertThatThrownBy(() -> p.execute("timeout fails"))
                .isInstanceOf(JobExecutionException.class)
                .hasStackTraceContaining("operator 'asset-lookup'")
                .hasStackTraceContaining("failed on record 37")
                .hasStackTraceContaining("no answer within 100 ms (attempt 1 of 1)");
        assertThat(attempts.of(37)).isEqualTo(1);
    }

    @Test
    void timeoutPolicyFallback_whenRecordsGetNoAnswer_thenTheFunctionsTimeoutGivesTheirDefaultResult() {
        Attempts attempts = new Attempts();
        AsyncFunction<Integer, Integer> silentForOdd = new AsyncFunction<>() {
            @Override
            public void asyncInvoke(Integer x, ResultFuture<Integer> result) {
                attempts.next(x);
                if (x % 2 == 0) {
                    result.completeWith(x);
                }
            }

            @Override
            public void timeout(Integer x, ResultFuture<Integer> result) {
                result.complete(List.of(-x, -x));
            }
        };
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.apply(p.fromCollection(numbers(40)), silentForOdd,
                AsyncOptions.ordered().capacity(8).timeout(Duration.ofMillis(30)).onTimeout(TimeoutPolicy.FALLBACK)).sinkTo(out);

        p.execute("fallback");

        List<Integer> expected = new ArrayList<>();
        for (int x = 0; x < 40; x++) {
            if (x % 2 == 0) {
                expected.add(x);
            } else {
                expected.add(-x);
                expected.add(-x);
            }
        }
        assertThat(out.results()).isEqualTo(expected);
        assertThat(attempts.of(3)).as("a fallback is no retry").isEqualTo(1);
    }

    @Test
    void timeoutPolicyRetry_whenOnlyTheThirdAttemptIsAnswered_thenEveryRecordGetsItsAnswerAfterThreeAttempts() {
        Attempts attempts = new Attempts();
        AsyncFunction<Integer, Integer> answersThirdAttempt = (x, result) -> {
            int attempt = attempts.next(x);
            if (x % 5 != 0 || attempt == 3) {
                result.completeWith(x * 2);
            }
        };
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.apply(p.fromCollection(numbers(60)), answersThirdAttempt, AsyncOptions.unordered().capacity(20)
                .timeout(Duration.ofMillis(20)).onTimeout(TimeoutPolicy.RETRY).retry(AsyncRetryStrategy.fixedDelay(3, Duration.ofMillis(5))))
                .sinkTo(out);

        p.execute("retry on timeout");

        assertThat(out.results()).containsExactlyInAnyOrderElementsOf(numbers(60).stream().map(x -> x * 2).toList());
        for (int x = 0; x < 60; x++) {
            assertThat(attempts.of(x)).as("attempts of " + x).isEqualTo(x % 5 == 0 ? 3 : 1);
        }
    }

    @Test
    void timeoutPolicyRetry_whenTheAttemptsAreUsedUp_thenTheJobFailsNamingTheLastAttempt() {
        Attempts attempts = new Attempts();
        Pipeline p = pipeline();
        AsyncDataStream.apply(p.fromCollection(numbers(20)), silentFor(x -> x == 12, attempts), AsyncOptions.ordered()
                .timeout(Duration.ofMillis(20)).onTimeout(TimeoutPolicy.RETRY).retry(AsyncRetryStrategy.fixedDelay(2, Duration.ofMillis(1))))
                .name("flaky-lookup").sinkTo(new CollectSink<>());

        assertThatThrownBy(() -> p.execute("retries used up"))
                .hasStackTraceContaining("operator 'flaky-lookup'")
                .hasStackTraceContaining("failed on record 12")
                .hasStackTraceContaining("no answer within 20 ms (attempt 2 of 2)");
        assertThat(attempts.of(12)).isEqualTo(2);
    }

    @Test
    void retryOnException_withExponentialBackoff_whenTwoAttemptsFail_thenTheThirdAnswersEveryRecord() {
        Attempts attempts = new Attempts();
        AsyncFunction<Integer, Integer> failsTwice = (x, result) -> {
            if (attempts.next(x) <= 2) {
                result.completeExceptionally(new IOException("service unavailable"));
            } else {
                result.completeWith(x + 100);
            }
        };
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.apply(p.fromCollection(numbers(30)), failsTwice, AsyncOptions.ordered().capacity(4)
                .retry(AsyncRetryStrategy.exponentialBackoff(4, Duration.ofMillis(1), Duration.ofMillis(4)))).sinkTo(out);

        p.execute("retry on exception");

        assertThat(out.results()).isEqualTo(numbers(30).stream().map(x -> x + 100).toList());
        assertThat(attempts.byInput.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(3));
    }

    @Test
    void retryOnException_whenThePredicateRejectsTheError_thenTheJobFailsAtTheFirstAttempt() {
        Attempts attempts = new Attempts();
        AsyncFunction<Integer, Integer> badInput = (x, result) -> {
            attempts.next(x);
            if (x == 5) {
                throw new IllegalArgumentException("unknown machine " + x);
            }
            result.completeWith(x);
        };
        Pipeline p = pipeline();
        AsyncDataStream.apply(p.fromCollection(numbers(10)), badInput, AsyncOptions.ordered()
                .retry(AsyncRetryStrategy.<Integer>fixedDelay(4, Duration.ZERO).retryOnException(e -> e instanceof IOException)))
                .name("lookup").sinkTo(new CollectSink<>());

        assertThatThrownBy(() -> p.execute("not retried"))
                .hasStackTraceContaining("operator 'lookup' (subtask 1/1) failed on record 5")
                .hasStackTraceContaining("attempt 1 of 4")
                .hasStackTraceContaining("unknown machine 5");
        assertThat(attempts.of(5)).isEqualTo(1);
    }

    @Test
    void retryOnResult_whenTheFirstAnswerIsEmpty_thenTheSecondAttemptsAnswerIsEmitted() {
        Attempts attempts = new Attempts();
        AsyncFunction<Integer, Integer> emptyFirst = (x, result) ->
                result.complete(attempts.next(x) == 1 ? List.of() : List.of(x));
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.apply(p.fromCollection(numbers(25)), emptyFirst, AsyncOptions.unordered()
                .retry(AsyncRetryStrategy.<Integer>fixedDelay(2, Duration.ofMillis(2)).retryOnResult(java.util.Collection::isEmpty))).sinkTo(out);

        p.execute("retry on result");

        assertThat(out.results()).containsExactlyInAnyOrderElementsOf(numbers(25));
        assertThat(attempts.byInput.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(2));
    }

    @Test
    void completeExceptionally_withoutRetry_failsTheJobNamingTheOperatorAndTheRecord() {
        AsyncFunction<Integer, Integer> failsAt = (x, result) -> {
            if (x == 8) {
                new Thread(() -> result.completeExceptionally(new IOException("connection reset"))).start();
            } else {
                result.completeWith(x);
            }
        };
        Pipeline p = pipeline();
        AsyncDataStream.orderedWait(p.fromCollection(numbers(20)), failsAt, Duration.ofSeconds(10), 5).name("enrich").sinkTo(new CollectSink<>());

        assertThatThrownBy(() -> p.execute("fails"))
                .isInstanceOf(JobExecutionException.class)
                .hasStackTraceContaining("operator 'enrich' (subtask 1/1) failed on record 8")
                .hasStackTraceContaining("connection reset");
    }

    @Test
    void aResultWithNull_failsTheJobNamingTheRecord_andIsNotRetried() {
        Attempts attempts = new Attempts();
        AsyncFunction<Integer, Integer> nullAt = (x, result) -> {
            attempts.next(x);
            result.complete(x == 4 ? java.util.Arrays.asList(x, null) : List.of(x));
        };
        Pipeline p = pipeline();
        AsyncDataStream.apply(p.fromCollection(numbers(10)), nullAt, AsyncOptions.ordered().retry(AsyncRetryStrategy.fixedDelay(3, Duration.ZERO)))
                .name("nulls").sinkTo(new CollectSink<>());

        assertThatThrownBy(() -> p.execute("null result"))
                .hasStackTraceContaining("operator 'nulls' (subtask 1/1) failed on record 4")
                .hasStackTraceContaining("the result of the async function contains null");
        assertThat(attempts.of(4)).isEqualTo(1);
    }

    @Test
    void resultFuture_whenCompletedTwice_thenOnlyTheFirstCompletionCountsAndTheOthersReturnFalse() {
        List<Boolean> later = Collections.synchronizedList(new ArrayList<>());
        AsyncFunction<Integer, Integer> twice = (x, result) -> {
            boolean first = result.completeWith(x);
            later.add(!first);
            later.add(result.complete(List.of(x + 1, x + 2)));
            later.add(result.completeExceptionally(new IllegalStateException("too late")));
        };
        Pipeline p = pipeline();
        CollectSink<Integer> out = new CollectSink<>();
        AsyncDataStream.orderedWait(p.fromCollection(numbers(30)), twice, Duration.ofSeconds(10), 3).sinkTo(out);

        p.execute("twice");

        assertThat(out.results()).isEqualTo(numbers(30));
        assertThat(later).hasSize(90).containsOnly(false);
    }

    @Test
    void cancel_whileTheOperatorWaitsForCapacity_thenTheJobEndsCancelled() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        AsyncFunction<Integer, Integer> neverAnswers = (x, result) -> requests.incrementAndGet();
        Pipeline p = pipeline();
        AsyncDataStream.orderedWait(p.fromCollection(numbers(100)), neverAnswers, Duration.ofHours(1), 2).sinkTo(new CollectSink<>());
        JobHandle job = p.executeAsync("stuck");
        Await.until("two requests in flight", () -> requests.get() == 2);

        job.cancel();
        JobResult result = job.await(Duration.ofSeconds(20));

        assertThat(result).as("ended after cancel").isNotNull();
        assertThat(result.cancelled()).isTrue();
        assertThat(requests.get()).as("no request beyond the capacity").isEqualTo(2);
    }

    @Test
    void options_whenOutOfRange_failNamingTheSettingAndTheValue() {
        assertThatThrownBy(() -> AsyncOptions.ordered().capacity(0)).hasMessageContaining("capacity").hasMessageContaining("0");
        assertThatThrownBy(() -> AsyncOptions.ordered().timeout(Duration.ZERO)).hasMessageContaining("timeout");
        assertThatThrownBy(() -> AsyncRetryStrategy.fixedDelay(0, Duration.ZERO)).hasMessageContaining("max attempts");
        assertThatThrownBy(() -> AsyncRetryStrategy.exponentialBackoff(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("maximum delay");
    }

    @Test
    void exponentialBackoff_doublesTheDelayUpToItsMaximum() {
        AsyncRetryStrategy<Object> s = AsyncRetryStrategy.exponentialBackoff(6, Duration.ofMillis(10), Duration.ofMillis(50));
        assertThat(List.of(s.delayBefore(2), s.delayBefore(3), s.delayBefore(4), s.delayBefore(5), s.delayBefore(6)))
                .containsExactly(10L, 20L, 40L, 50L, 50L);
        assertThat(AsyncRetryStrategy.fixedDelay(3, Duration.ofMillis(7)).delayBefore(3)).isEqualTo(7);
    }

}
