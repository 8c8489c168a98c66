package io.millrace.runtime.task;

import io.millrace.api.OutputTag;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.plan.Specs;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.time.Clock;
import io.millrace.runtime.exchange.Channel;
import io.millrace.runtime.exchange.RecordWriter;
import io.millrace.runtime.exchange.TaskSignal;
import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.operator.ClassCopies;
import io.millrace.runtime.operator.OneInputOperator;
import io.millrace.runtime.operator.Output;
import io.millrace.runtime.operator.StreamOperator;
import io.millrace.runtime.plan.OperatorFactory;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.runtime.plan.PhysicalPlan.Chain;
import io.millrace.runtime.plan.PhysicalPlan.Edge;
import io.millrace.runtime.source.SourceOperator;
import io.millrace.runtime.source.WatermarkAlignment;
import io.millrace.runtime.checkpoint.OperatorIds;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Instantiates a physical plan: one task per chain and subtask, a channel per producer and consumer
 * subtask of every exchange edge, the operators with their contexts, and their outputs wired to the
 * chained successors and record writers.
 */
public final class TaskWiring {
    /** Everything a running job consists of. */
    public record Wired(List<Task> tasks, List<Channel> channels, List<OperatorMetricGroup> operatorMetrics, List<KeyedStateBackend> backends,
            SourceCoordinator sources) {}

    private final PhysicalPlan plan;
    private final PipelineConfig config;
    private final Clock clock;
    private final TaskHost host;
    private final KeyedStateBackendFactory backends;
    private final OperatorFactory operators;
    private final Map<Chain, TaskSignal[]> signals = new IdentityHashMap<>();
    private final Map<Chain, Task[]> tasks = new IdentityHashMap<>();
    private final Map<Edge, RecordWriter[]> writers = new IdentityHashMap<>();
    private final Map<Chain, List<List<InputGate.InputChannel>>> gates = new IdentityHashMap<>();
    private final List<Channel> allChannels = new ArrayList<>();
    private final List<OperatorMetricGroup> allMetrics = new ArrayList<>();
    private final List<KeyedStateBackend> allBackends = new ArrayList<>();

    private final StateRestorer restorer;

    /** {@code restorer} is null for a fresh start. */
    public TaskWiring(PhysicalPlan plan, TaskHost host, KeyedStateBackendFactory backends, OperatorFactory operators, StateRestorer restorer) {
        this.plan = plan;
        this.restorer = restorer;
        this.config = plan.logical().config();
        this.clock = config.clock();
        this.host = host;
        this.backends = backends;
        this.operators = operators;
    }

    public Wired wire() throws Exception {
        long bufferTimeoutNanos = config.bufferTimeout().toNanos();
        long inFlightTargetNanos = config.channelInFlightTarget().toNanos();
        for (Chain c : plan.chains()) {
            TaskSignal[] s = new TaskSignal[c.parallelism()];
            Task[] t = new Task[c.parallelism()];
            List<List<InputGate.InputChannel>> g = new ArrayList<>();
            boolean source = c.head().spec() instanceof Specs.SourceSpec;
            for (int i = 0; i < s.length; i++) {
                s[i] = new TaskSignal();
                t[i] = source
                        ? new SourceTask(c.name(), i, clock, s[i], host, bufferTimeoutNanos)
                        : new StreamTask(c.name(), i, clock, s[i], host, bufferTimeoutNanos, inFlightTargetNanos);
                g.add(new ArrayList<>());
            }
            signals.put(c, s);
            tasks.put(c, t);
            gates.put(c, g);
        }
        for (Edge e : plan.edges()) {
            if (!e.chained()) {
                wireExchange(e);
            }
        }
        createAlignmentGroups();
        for (Chain c : plan.chains()) {
            for (int i = 0; i < c.parallelism(); i++) {
                wireChain(c, i);
            }
        }
        for (SourceSetup setup : sourceSetups.values()) {
            setup.startEnumerator(sourceCoordinator);
        }
        List<Task> all = new ArrayList<>();
        for (Chain c : plan.chains()) {
            all.addAll(List.of(tasks.get(c)));
        }
        return new Wired(all, allChannels, allMetrics, allBackends, sourceCoordinator);
    }

    @SuppressWarnings("unchecked")
    private void wireExchange(Edge e) {
        Chain from = plan.chainOf(e.from());
        Chain to = plan.chainOf(e.to());
        int pFrom = from.parallelism();
        int pTo = to.parallelism();
        RecordWriter[] ws = new RecordWriter[pFrom];
        String edgeName = e.describe();
        for (int i = 0; i < pFrom; i++) {
            Channel[] chs;
            if (e.partitioning() == Partitioning.FORWARD) {
                chs = new Channel[] {channel(e, i, i)};
            } else {
                chs = new Channel[pTo];
                for (int j = 0; j < pTo; j++) {
                    chs[j] = channel(e, i, j);
                }
            }
            Task producer = tasks.get(from)[i];
            ws[i] = new RecordWriter(edgeName, chs, e.partitioning(), (KeySelector<Object, Object>) e.logical().keySelector(),
                    config.maxParallelism(), i, host::cancelled, clock, Math.min(config.watermarkInterval().toNanos(), config.bufferTimeout().toNanos()));
            producer.addWriter(ws[i]);
        }
        writers.put(e, ws);
    }

    private Channel channel(Edge e, int producer, int consumer) {
        Chain to = plan.chainOf(e.to());
        int capacity = config.channelCapacity();
        // sized channels start short, so that a slow consumer's queues never fill to capacity before it has measured
        // its rate (a fast one grows them within a sizing period or two)
        int initialBound = config.channelInFlightTarget().isZero() ? capacity : Math.min(InFlightSizing.MIN_BOUND, capacity);
        Channel ch = new Channel(e.from().name(), producer, e.to().name(), consumer, capacity, initialBound, config.batchSize(),
                signals.get(to)[consumer]);
        gates.get(to).get(consumer).add(new InputGate.InputChannel(ch, e.inputIndex()));
        allChannels.add(ch);
        return ch;
    }

    @SuppressWarnings("unchecked")
    private void wireChain(Chain c, int subtask) throws Exception {
        Task task = tasks.get(c)[subtask];
        Map<LogicalNode, StreamOperator<Object>> ops = new IdentityHashMap<>();
        Map<LogicalNode, OperatorMetricGroup> metrics = new IdentityHashMap<>();
        Map<LogicalNode, io.millrace.runtime.operator.OperatorContext> contexts = new IdentityHashMap<>();
        for (LogicalNode n : c.members()) {
            OperatorMetricGroup m = new OperatorMetricGroup(n.name(), subtask);
            allMetrics.add(m);
            metrics.put(n, m);
            contexts.put(n, context(n, subtask, m));
            if (!(n.spec() instanceof Specs.SourceSpec)) {
                StreamOperator<Object> op = (StreamOperator<Object>) operators.create(n, subtask, plan.parallelism(n));
                if (restorer != null && restorer.has(OperatorIds.of(n))) {
                    op.restoreOperatorState(restorer.operatorItems(OperatorIds.of(n), subtask, plan.parallelism(n)));
                }
                ops.put(n, op);
            }
        }
        // outputs: built after all operators of the chain exist
        Map<LogicalNode, Output<Object>> outputs = new IdentityHashMap<>();
        for (LogicalNode n : c.members()) {
            outputs.put(n, output(n, subtask, ops, metrics));
        }
        for (LogicalNode n : c.members()) {
            if (ops.containsKey(n)) {
                task.addMember(new ChainMember(OperatorIds.of(n), ops.get(n), contexts.get(n), outputs.get(n), metrics.get(n)));
            }
        }
        if (task instanceof SourceTask st) {
            LogicalNode head = c.head();
            Specs.SourceSpec<Object> spec = (Specs.SourceSpec<Object>) head.spec();
            io.millrace.runtime.operator.OperatorContext ctx = contexts.get(head);
            SourceReader<Object, SourceSplit> reader = (SourceReader<Object, SourceSplit>) spec.source().createReader(readerContext(ctx, st));
            SourceOperator<Object> op = new SourceOperator<>(reader, spec.watermarks(), spec.badRecords(), ctx, outputs.get(head));
            SourceSetup setup = sourceSetup(c, (Source<Object, SourceSplit>) spec.source());
            st.setSource(op, outputs.get(head), setup.splitsFor(subtask), OperatorIds.of(head), head.name(), c.parallelism());
            st.splitCodecs(setup.codecs);
            if (setup.dynamic()) {
                st.dynamicSplits();
            }
            if (restorer != null) {
                st.resumeAt(restorer.watermark(OperatorIds.of(head)));
            }
            WatermarkAlignment group = spec.watermarks().alignmentGroup() == null ? null : alignmentGroups.get(spec.watermarks().alignmentGroup());
            if (group != null) {
                st.align(group, spec.watermarks().maxAllowedDrift().toMillis());
            }
        } else {
            long restored = restorer == null ? Long.MIN_VALUE : restorer.watermark(OperatorIds.of(c.head()));
            ((StreamTask) task).setInput(new InputGate(gates.get(c).get(subtask), restored));
        }
    }

    private final Map<LogicalNode, SourceSetup> sourceSetups = new LinkedHashMap<>();
    private final SourceCoordinator sourceCoordinator = new SourceCoordinator();
    private final Map<String, WatermarkAlignment> alignmentGroups = new java.util.HashMap<>();

    /** One board per watermark alignment group of the job, with a slot per source subtask; a group of one subtask needs none. */
    private void createAlignmentGroups() {
        Map<String, Integer> members = new java.util.TreeMap<>();
        for (Chain c : plan.chains()) {
            if (c.head().spec() instanceof Specs.SourceSpec<?> spec && spec.watermarks().alignmentGroup() != null) {
                members.merge(spec.watermarks().alignmentGroup(), c.parallelism(), Integer::sum);
            }
        }
        members.forEach((group, n) -> {
            if (n > 1) {
                alignmentGroups.put(group, new WatermarkAlignment(group, n));
            }
        });
    }

    private SourceSetup sourceSetup(Chain c, Source<Object, SourceSplit> source) throws Exception {
        SourceSetup setup = sourceSetups.get(c.head());
        if (setup == null) {
            Task[] t = tasks.get(c);
            SourceTask[] sourceTasks = java.util.Arrays.copyOf(t, t.length, SourceTask[].class);
            setup = new SourceSetup(c.head().name(), OperatorIds.of(c.head()), source, c.parallelism(), restorer, sourceCoordinator,
                    sourceTasks, clock);
            sourceSetups.put(c.head(), setup);
        }
        return setup;
    }

    @SuppressWarnings("unchecked")
    private Output<Object> output(LogicalNode n, int subtask, Map<LogicalNode, StreamOperator<Object>> ops,
            Map<LogicalNode, OperatorMetricGroup> metrics) {
        List<Output<Object>> main = new ArrayList<>();
        Map<OutputTag<?>, List<Output<Object>>> sides = new LinkedHashMap<>();
        List<Edge> edges = plan.outgoing(n);
        boolean direct = edges.size() == 1 && edges.get(0).sideOutput() == null;
        // records out are counted once per emitted record: by the single consumer, or else by the router
        OperatorMetricGroup counter = direct ? metrics.get(n) : new OperatorMetricGroup(n.name(), subtask);
        for (Edge e : edges) {
            Output<Object> o;
            if (e.chained()) {
                // a copy of ChainedOutput per class of the next operator, so that its call is not shared (ClassCopies)
                StreamOperator<Object> next = ops.get(e.to());
                o = ClassCopies.newInstance(MethodHandles.lookup(), ChainedOutput.class, Output.class, next.getClass(),
                        new Class<?>[] {OneInputOperator.class, OperatorMetricGroup.class, OperatorMetricGroup.class},
                        next, counter, metrics.get(e.to()));
            } else {
                o = new NetworkOutput<>(writers.get(e)[subtask], counter);
            }
            if (e.sideOutput() == null) {
                main.add(o);
            } else {
                sides.computeIfAbsent(e.sideOutput(), k -> new ArrayList<>()).add(o);
            }
        }
        if (sides.isEmpty() && main.size() == 1) {
            return main.get(0);
        }
        if (sides.isEmpty() && main.isEmpty()) {
            return new DiscardingOutput<>();
        }
        if (sides.isEmpty() && main.size() == 2) {
            return ClassCopies.newInstance(MethodHandles.lookup(), PairOutput.class, Output.class, main.get(0).getClass(),
                    new Class<?>[] {Output.class, Output.class, OperatorMetricGroup.class}, main.get(0), main.get(1), metrics.get(n));
        }
        return new OutputRouter<>(main, sides, metrics.get(n));
    }

    @SuppressWarnings("unchecked")
    private io.millrace.runtime.operator.OperatorContext context(LogicalNode n, int subtask, OperatorMetricGroup m) throws Exception {
        int p = plan.parallelism(n);
        int maxP = config.maxParallelism();
        KeyedStateBackend backend = null;
        KeySelector<Object, Object> k0 = null;
        KeySelector<Object, Object> k1 = null;
        for (Edge e : plan.incoming(n)) {
            if (e.partitioning() == Partitioning.HASH) {
                KeySelector<Object, Object> k = (KeySelector<Object, Object>) e.logical().keySelector();
                if (e.inputIndex() == 0 && k0 == null) {
                    k0 = k;
                } else if (e.inputIndex() == 1 && k1 == null) {
                    k1 = k;
                }
            }
        }
        String operatorId = OperatorIds.of(n);
        if (plan.keyed(n)) {
            KeyGroupRange range = KeyGroups.rangeFor(subtask, maxP, p);
            backend = backends.create(n.name(), range, maxP, clock);
            allBackends.add(backend);
            if (restorer != null) {
                KeyedStateBackend target = backend;
                // read on the task's own thread when it starts: subtasks restore in parallel
                tasks.get(plan.chainOf(n))[subtask].addRestore(() -> restorer.restoreKeyed(operatorId, target, range));
            }
        }
        boolean checkpointing = host.checkpointing() != null;
        long restoredId = restorer == null ? -1 : restorer.checkpointId();
        int restoredParallelism = restorer == null ? -1 : restorer.parallelism(operatorId);
        Task task = tasks.get(plan.chainOf(n))[subtask];
        return new OperatorContextImpl(n.name(), subtask, p, maxP, clock, m, backend, k0, k1, checkpointing, restoredId, restoredParallelism,
                task.operatorMailbox());
    }

    private SourceReaderContext readerContext(io.millrace.runtime.operator.OperatorContext ctx, SourceTask task) {
        return new SourceReaderContext() {
            @Override
            public void wakeUp() {
                task.wakeUp();
            }

            @Override
            public int subtaskIndex() {
                return ctx.subtaskIndex();
            }

            @Override
            public int parallelism() {
                return ctx.parallelism();
            }

            @Override
            public Clock clock() {
                return ctx.clock();
            }

            @Override
            public String sourceName() {
                return ctx.operatorName();
            }
        };
    }
}
