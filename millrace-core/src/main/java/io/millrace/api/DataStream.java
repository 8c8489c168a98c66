package io.millrace.api;

import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.FilterFunction;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.plan.LogicalEdge;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.plan.Specs;
import io.millrace.api.sink.PrintSink;
import io.millrace.api.sink.Sink;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowAssigner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * A stream of records of type T. Each transformation adds an operator to the pipeline and returns the
 * stream of its output; {@link #name}, {@link #uid} and {@link #parallelism} set that operator's
 * properties.
 */
public class DataStream<T> {
    /** One producer of this stream: a node's main output or one of its side outputs. */
    record Producer(LogicalNode node, OutputTag<?> tag) {}

    final Pipeline pipeline;
    final List<Producer> producers;
    final Partitioning partitioning;
    final KeySelector<?, ?> keySelector;

    DataStream(Pipeline pipeline, LogicalNode node) {
        this(pipeline, List.of(new Producer(node, null)), Partitioning.DEFAULT, null);
    }

    DataStream(Pipeline pipeline, List<Producer> producers, Partitioning partitioning, KeySelector<?, ?> keySelector) {
        this.pipeline = pipeline;
        this.producers = List.copyOf(producers);
        this.partitioning = partitioning;
        this.keySelector = keySelector;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public <R> DataStream<R> map(MapFunction<T, R> function) {
        return transform(new Specs.MapSpec<>(Objects.requireNonNull(function, "function")));
    }

    public DataStream<T> filter(FilterFunction<T> function) {
        return transform(new Specs.FilterSpec<>(Objects.requireNonNull(function, "function")));
    }

    public <R> DataStream<R> flatMap(FlatMapFunction<T, R> function) {
        return transform(new Specs.FlatMapSpec<>(Objects.requireNonNull(function, "function")));
    }

    public <R> DataStream<R> process(ProcessFunction<T, R> function) {
        return transform(new Specs.ProcessSpec<>(Objects.requireNonNull(function, "function")));
    }

    /**
     * Assigns event timestamps and watermarks here, for streams whose source had none. Watermark alignment works by
     * pausing source readers, so a strategy with an alignment group is refused here: give it to {@code fromSource}.
     */
    public DataStream<T> assignTimestampsAndWatermarks(WatermarkStrategy<T> strategy) {
        Objects.requireNonNull(strategy, "strategy");
        if (strategy.alignmentGroup() != null) {
            throw new IllegalArgumentException("assignTimestampsAndWatermarks cannot align watermarks (group '" + strategy.alignmentGroup()
                    + "'): alignment pauses source readers, so give the strategy with withWatermarkAlignment to fromSource");
        }
        return transform(new Specs.TimestampsSpec<>(strategy));
    }

    /**
     * Partitions by key: records with equal keys go to the same subtask, which holds their state. The key's group
     * comes from its {@link io.millrace.api.state.KeyHash}; a key type that cannot have one (an array, a class
     * without its own equals and hashCode) is refused here when the selector declares it, else at its first key.
     */
    public <K> KeyedStream<K, T> keyBy(KeySelector<T, K> key) {
        return new KeyedStream<>(pipeline, producers, Objects.requireNonNull(key, "key"));
    }

    /**
     * Cuts the whole stream, not keyed, into windows evaluated by one subtask, e.g. the highest reading of all
     * machines per minute: {@code windowAll(Windows.tumbling(Duration.ofMinutes(1))).reduce(...)}. Reduce and
     * aggregate functions over event-time tumbling or sliding windows are pre-aggregated in every producing
     * subtask, so the one window subtask receives a few partials per slice rather than every record.
     */
    public <W extends Window> AllWindowedStream<T, W> windowAll(WindowAssigner<W> assigner) {
        return new AllWindowedStream<>(keyBy(new AllWindowedStream.WholeStream<T>()).window(assigner));
    }

    /** Tumbling count windows over the whole stream: one result per {@code size} records, in one subtask. */
    public AllWindowedStream<T, GlobalWindow> countWindowAll(long size) {
        return countWindowAll(size, size);
    }

    /** Sliding count windows over the whole stream: every {@code slide} records, a result over the last {@code size}. */
    public AllWindowedStream<T, GlobalWindow> countWindowAll(long size, long slide) {
        return windowAll(CountWindows.of(size, slide));
    }

    /** Merges streams of the same type; no order between them is kept. */
    @SafeVarargs
    public final DataStream<T> union(DataStream<T>... others) {
        List<Producer> all = new ArrayList<>(producers);
        for (DataStream<T> o : others) {
            if (o.pipeline != pipeline) {
                throw new IllegalArgumentException("cannot union streams of different pipelines");
            }
            all.addAll(o.producers);
        }
        return new DataStream<>(pipeline, all, partitioning, keySelector);
    }

    /** Connects to another stream for a two-input operator (e.g. control and data). */
    public <R> ConnectedStreams<T, R> connect(DataStream<R> other) {
        if (other.pipeline != pipeline) {
            throw new IllegalArgumentException("cannot connect streams of different pipelines");
        }
        return new ConnectedStreams<>(this, other);
    }

    /**
     * Connects to a broadcast stream: every record of {@code broadcast} reaches every subtask of the operator, which
     * keeps the broadcast states; process with a {@link io.millrace.api.functions.BroadcastProcessFunction}, or, after
     * {@code keyBy}, a {@link io.millrace.api.functions.KeyedBroadcastProcessFunction}.
     */
    public <R> BroadcastConnectedStream<T, R> connect(BroadcastStream<R> broadcast) {
        Objects.requireNonNull(broadcast, "broadcast");
        if (broadcast.stream.pipeline != pipeline) {
            throw new IllegalArgumentException("cannot connect streams of different pipelines");
        }
        return new BroadcastConnectedStream<>(this, broadcast);
    }

    /**
     * Starts a window join with {@code other}: {@code join(other).where(keyOfThis).equalTo(keyOfOther).window(assigner)
     * .apply(joinFunction)} pairs the rows of both streams with equal keys in the same window. See {@link WindowJoin}.
     */
    public <R> JoinedStreams<T, R> join(DataStream<R> other) {
        Objects.requireNonNull(other, "other");
        if (other.pipeline != pipeline) {
            throw new IllegalArgumentException("cannot join streams of different pipelines");
        }
        return new JoinedStreams<>(this, other);
    }

    /** Every record goes to every subtask of the next operator. */
    public DataStream<T> broadcast() {
        return new DataStream<>(pipeline, producers, Partitioning.BROADCAST, null);
    }

    /**
     * Every record goes to every subtask of the operator this stream is connected to, which keeps the named broadcast
     * states (maps, the same on every subtask, changed only by these records): for rules, thresholds or configuration
     * that every subtask of a stream must see. Connect it with {@link #connect(BroadcastStream)}.
     *
     * @throws IllegalArgumentException when no descriptor is given, two have the same name or one has a time-to-live
     */
    public BroadcastStream<T> broadcast(MapStateDescriptor<?, ?>... descriptors) {
        Objects.requireNonNull(descriptors, "descriptors");
        if (descriptors.length == 0) {
            throw new IllegalArgumentException("broadcast(descriptors): name at least one broadcast state (a MapStateDescriptor);"
                    + " broadcast() without state sends records to every subtask of the next operator");
        }
        java.util.Set<String> names = new HashSet<>();
        for (MapStateDescriptor<?, ?> d : descriptors) {
            Objects.requireNonNull(d, "descriptor");
            if (d.ttl().enabled()) {
                throw new IllegalArgumentException("broadcast(descriptors): broadcast state '" + d.name() + "' has a time-to-live,"
                        + " which broadcast state does not support (entries would expire at different times on each subtask);"
                        + " remove entries from processBroadcastElement instead");
            }
            if (!names.add(d.name())) {
                throw new IllegalArgumentException("broadcast(descriptors): two broadcast states are named '" + d.name() + "'");
            }
        }
        return new BroadcastStream<>(broadcast(), List.of(descriptors));
    }

    /** Records are spread round robin over the subtasks of the next operator. */
    public DataStream<T> rebalance() {
        return new DataStream<>(pipeline, producers, Partitioning.REBALANCE, null);
    }

    /** Subtask i feeds subtask i of the next operator (both need the same parallelism). */
    public DataStream<T> forward() {
        return new DataStream<>(pipeline, producers, Partitioning.FORWARD, null);
    }

    /** The records the producing operator sent to a side output, such as late data or dead letters. */
    public <X> DataStream<X> getSideOutput(OutputTag<X> tag) {
        Objects.requireNonNull(tag, "tag");
        return new DataStream<>(pipeline, List.of(new Producer(singleNode("getSideOutput"), tag)), Partitioning.DEFAULT, null);
    }

    public DataStreamSink sinkTo(Sink<T> sink) {
        LogicalNode node = addNode(new Specs.SinkSpec<>(Objects.requireNonNull(sink, "sink")), 0);
        return new DataStreamSink(node);
    }

    /** Prints every record to standard output. */
    public DataStreamSink print() {
        return sinkTo(new PrintSink<>("")).name("print");
    }

    /** Sets the name of the operator that produces this stream (shown in metrics and errors). */
    public DataStream<T> name(String name) {
        singleNode("name").setName(name);
        return this;
    }

    /** Sets a stable id that maps the operator's state across versions of the job. */
    public DataStream<T> uid(String uid) {
        singleNode("uid").setUid(uid);
        return this;
    }

    public DataStream<T> parallelism(int parallelism) {
        singleNode("parallelism").setParallelism(parallelism);
        return this;
    }

    /** Adds a node fed by this stream; for front ends and the stream classes. */
    public <R> DataStream<R> transform(OperatorSpec spec) {
        return new DataStream<>(pipeline, addNode(spec, 0));
    }

    LogicalNode addNode(OperatorSpec spec, int inputIndex) {
        if (spec.keyed() && partitioning != Partitioning.HASH) {
            throw new IllegalStateException(spec.defaultName() + " needs a keyed stream: call keyBy first");
        }
        LogicalNode node = pipeline.addNode(spec);
        connectTo(node, inputIndex);
        return node;
    }

    void connectTo(LogicalNode node, int inputIndex) {
        for (Producer p : producers) {
            node.addInput(new LogicalEdge(p.node(), p.tag(), partitioning, keySelector, inputIndex));
        }
    }

    LogicalNode singleNode(String what) {
        if (producers.size() != 1 || producers.get(0).tag() != null) {
            throw new IllegalStateException(what + "() applies to the output of one operator, not to a union or side output");
        }
        return producers.get(0).node();
    }
}
