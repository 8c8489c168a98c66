package io.millrace.api;

import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.PlanExecutor;
import io.millrace.api.plan.Specs;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.source.CollectionSource;
import io.millrace.api.source.Source;
import io.millrace.api.time.WatermarkStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Builds a pipeline and runs it. Not thread-safe: build on one thread, then {@link #execute} or
 * {@link #executeAsync}. A pipeline can be executed more than once; each run starts from scratch.
 *
 * <pre>{@code
 * Pipeline p = Pipeline.create();
 * p.fromElements(1, 2, 3).map(x -> x * 2).print();
 * p.execute("doubles");
 * }</pre>
 */
public final class Pipeline {
    private final PipelineConfig config;
    private final List<LogicalNode> nodes = new ArrayList<>();

    private Pipeline(PipelineConfig config) {
        this.config = config;
    }

    public static Pipeline create() {
        return new Pipeline(new PipelineConfig());
    }

    public static Pipeline create(PipelineConfig config) {
        return new Pipeline(Objects.requireNonNull(config, "config").copy());
    }

    public PipelineConfig config() {
        return config;
    }

    /** Reads a source with the given watermark strategy; bad input fails the job. */
    public <T> DataStream<T> fromSource(Source<T, ?> source, WatermarkStrategy<T> watermarks, String name) {
        return fromSource(source, watermarks, BadRecordPolicy.FAIL, name);
    }

    /** Reads a source; input it cannot decode follows {@code badRecords}. */
    public <T> DataStream<T> fromSource(
            Source<T, ?> source, WatermarkStrategy<T> watermarks, BadRecordPolicy badRecords, String name) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(watermarks, "watermarks");
        Objects.requireNonNull(badRecords, "badRecords");
        LogicalNode node = addNode(new Specs.SourceSpec<>(source, watermarks, badRecords));
        node.setName(Objects.requireNonNull(name, "name"));
        if (source.maxParallelism() > 0 && source.maxParallelism() < config.parallelism()) {
            node.setParallelism(source.maxParallelism());
        }
        return new DataStream<>(this, node);
    }

    /** A bounded stream of the given elements, without timestamps, read by one subtask in order. */
    public <T> DataStream<T> fromCollection(Collection<T> elements) {
        return fromSource(new CollectionSource<>(elements), WatermarkStrategy.noWatermarks(), "collection");
    }

    @SafeVarargs
    public final <T> DataStream<T> fromElements(T... elements) {
        return fromCollection(Arrays.asList(elements));
    }

    /** Creates a node; used by the stream classes and by other front ends (SQL). */
    public LogicalNode addNode(OperatorSpec spec) {
        LogicalNode node = new LogicalNode(nodes.size(), spec);
        nodes.add(node);
        return node;
    }

    public LogicalPlan plan() {
        return new LogicalPlan(nodes, config.copy());
    }

    /** Runs the pipeline and waits for it to end (bounded sources) or fail. */
    public JobResult execute(String jobName) {
        JobHandle handle = executeAsync(jobName);
        try {
            return handle.await();
        } catch (InterruptedException e) {
            handle.cancel();
            Thread.currentThread().interrupt();
            throw new JobExecutionException("interrupted while waiting for job '" + jobName + "'", e);
        }
    }

    /** Starts the pipeline and returns at once. */
    public JobHandle executeAsync(String jobName) {
        if (nodes.isEmpty()) {
            throw new IllegalStateException("the pipeline has no operators: add a source and a sink first");
        }
        return executor().submit(plan(), Objects.requireNonNull(jobName, "jobName"));
    }

    private static PlanExecutor executor() {
        for (PlanExecutor e : ServiceLoader.load(PlanExecutor.class)) {
            return e;
        }
        throw new IllegalStateException("no Millrace runtime on the class path (no " + PlanExecutor.class.getName() + " service)");
    }
}
