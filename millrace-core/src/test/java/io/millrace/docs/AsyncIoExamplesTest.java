package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.async.AsyncDataStream;
import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.AsyncLookupCache;
import io.millrace.api.async.AsyncOptions;
import io.millrace.api.async.AsyncOptions.TimeoutPolicy;
import io.millrace.api.async.AsyncRetryStrategy;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The example of docs/async-io.md: sensor readings enriched with their machine's record from a slow asset service,
 * through a lookup cache; checked against the register itself.
 */
class AsyncIoExamplesTest {
    /** Requests the asset service received, over all subtasks. */
    static final AtomicInteger SERVICE_CALLS = new AtomicInteger();

    // tag::asset-service[]
    /** What the asset register knows about a machine. */
    record Asset(String machineId, String line, String model) {}

    /** The register behind the service: machines M001 to M006 on two lines; M006 is not registered. */
    static Asset register(String machineId) {
        int n = Integer.parseInt(machineId.substring(1));
        return n > 5 ? null : new Asset(machineId, n <= 3 ? "line-A" : "line-B", n % 2 == 0 ? "CNC-200" : "CNC-100");
    }

    /** A slow asset service: answers each lookup from its own threads about 20 ms later. */
    static final class AssetService implements AsyncFunction<String, Asset>, RichFunction {
        private transient ExecutorService threads;
        private transient Executor slow;

        @Override
        public void open(RuntimeContext context) {
            threads = Executors.newFixedThreadPool(4);
            slow = CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS, threads);
        }

        @Override
        public void asyncInvoke(String machineId, ResultFuture<Asset> result) {
            SERVICE_CALLS.incrementAndGet();
            CompletableFuture.supplyAsync(() -> register(machineId), slow).whenComplete((asset, error) -> {
                if (error != null) {
                    result.completeExceptionally(error);
                } else {
                    result.complete(asset == null ? List.of() : List.of(asset));
                }
            });
        }

        @Override
        public void close() {
            threads.shutdownNow();
        }
    }
    // end::asset-service[]

    /** A reading with what the register says about its machine. */
    record EnrichedReading(SensorReading reading, String line, String model) {}

    @Test
    void readingsEnrichedFromASlowAssetService_throughACache_carryTheirMachinesRecord() {
        SimulatorConfig floor = SimulatorConfig.builder().machines(6).eventsPerSecond(40).duration(Duration.ofMinutes(10))
                .lateFraction(0).unlimitedSpeed().seed(11).build();
        FactorySimulator factory = new FactorySimulator(floor);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<EnrichedReading> out = new CollectSink<>();
        CollectSink<SensorReading> all = new CollectSink<>();
        SERVICE_CALLS.set(0);

        // tag::enrich[]
        DataStream<SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings());

        AsyncLookupCache<SensorReading, String, Asset, EnrichedReading> assets = AsyncLookupCache
                .of(SensorReading::machineId, new AssetService(),
                        (reading, asset) -> asset == null
                                ? new EnrichedReading(reading, "unregistered", "unknown")
                                : new EnrichedReading(reading, asset.line(), asset.model()))
                .maxEntries(1_000)                               // machines per subtask
                .expireAfterWrite(Duration.ofMinutes(10));       // then asked again

        DataStream<EnrichedReading> enriched = AsyncDataStream.apply(
                readings.keyBy(SensorReading::machineId),        // each subtask caches its own machines
                assets,
                AsyncOptions.ordered()
                        .capacity(64)                            // lookups in flight per subtask
                        .timeout(Duration.ofSeconds(2))
                        .onTimeout(TimeoutPolicy.RETRY)
                        .retry(AsyncRetryStrategy.exponentialBackoff(3, Duration.ofMillis(100), Duration.ofSeconds(1))));
        // end::enrich[]
        enriched.sinkTo(out);
        readings.sinkTo(all);

        pipeline.execute("enrich readings");

        assertThat(out.results()).hasSameSizeAs(all.results()).hasSizeGreaterThan(1_000);
        assertThat(out.results()).allSatisfy(e -> {
            Asset asset = register(e.reading().machineId());
            assertThat(e.line()).isEqualTo(asset == null ? "unregistered" : asset.line());
            assertThat(e.model()).isEqualTo(asset == null ? "unknown" : asset.model());
        });
        assertThat(out.results().stream().map(EnrichedReading::reading).toList()).containsExactlyInAnyOrderElementsOf(all.results());
        // misses of a machine in flight at once each ask; then the cache answers
        assertThat(SERVICE_CALLS.get()).as("lookups for " + out.size() + " readings").isLessThan(out.size() / 50);
    }
}
