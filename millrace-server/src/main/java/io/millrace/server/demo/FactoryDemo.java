package io.millrace.server.demo;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.Clock;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.time.Duration;

/**
 * The factory-floor demo pipeline: simulated machines, then per machine a 5-minute sliding average of
 * vibration every 30 s, the maximum temperature per minute, run cycles from session windows, and alerts from
 * the pattern {@link SpikeThenDrop} (temperature spike, then pressure drop within 30 s); late readings of the
 * windows are diverted to a side output and counted.
 */
public final class FactoryDemo {
    /** Late readings of both windowed measures. */
    public static final OutputTag<SensorReading> LATE = new OutputTag<>("late-readings");

    /** Readings behind the watermark when they reach the alert pattern: not matched, counted. */
    public static final OutputTag<SensorReading> LATE_FOR_ALERTS = new OutputTag<>("late-for-alerts");

    /** Silence longer than this ends a machine's run cycle (the simulator stops machines for 30 s or more). */
    static final Duration CYCLE_GAP = Duration.ofSeconds(20);

    private final FactorySimulator simulator;
    private final Pipeline pipeline;

    /** Where the pipeline's results go. */
    public record Sinks(Sink<WindowValue> windows, Sink<RunCycle> cycles, Sink<SensorReading> late, Sink<Alert> alerts,
            Sink<SensorReading> lateForAlerts) {}

    /** Where the pipeline's events come from; the source is named {@code factory-floor}. */
    @FunctionalInterface
    public interface Input {
        DataStream<FactoryEvent> events(Pipeline pipeline);
    }

    /** The simulator, run inside the pipeline. */
    public FactoryDemo(SimulatorConfig sim, int parallelism, Clock clock, Sinks sinks) {
        this.simulator = new FactorySimulator(sim);
        this.pipeline = Pipeline.create(new PipelineConfig().parallelism(parallelism).clock(clock));
        build(sinks, p -> p.fromSource(simulator, simulator.watermarkStrategy().withIdleness(Duration.ofSeconds(5)), "factory-floor")
                .uid("factory-floor"));
    }

    /** Events from {@code input}, which carries what a simulator of {@code sim} produces (e.g. through Kafka). */
    public FactoryDemo(SimulatorConfig sim, int parallelism, Clock clock, Sinks sinks, Input input) {
        this(sim, new PipelineConfig().parallelism(parallelism).clock(clock), sinks, input);
    }

    /** The same with a configuration of the pipeline's own (checkpoints, for a source that acknowledges after them). */
    public FactoryDemo(SimulatorConfig sim, PipelineConfig config, Sinks sinks, Input input) {
        this.simulator = new FactorySimulator(sim);
        this.pipeline = Pipeline.create(config);
        build(sinks, input);
    }

    private void build(Sinks sinks, Input input) {
        DataStream<FactoryEvent> events = input.events(pipeline);
        DataStream<SensorReading> readings = events.flatMap(FactoryEvent.readings()).name("readings");

        DataStream<WindowValue> vibration = readings
                .filter(r -> r.sensor() == Sensor.VIBRATION).name("vibration")
                .keyBy(SensorReading::machineId)
                .window(Windows.sliding(Duration.ofMinutes(5), Duration.ofSeconds(30)))
                .sideOutputLateData(LATE)
                .aggregate(new Averages(), new ToWindowValue(WindowValue.Kind.VIBRATION_AVG_5M))
                .name("vibration-avg-5m").uid("vibration-avg-5m");

        DataStream<WindowValue> temperature = readings
                .filter(r -> r.sensor() == Sensor.TEMPERATURE).name("temperature")
                .keyBy(SensorReading::machineId)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .sideOutputLateData(LATE)
                .aggregate(new Averages(), new ToWindowValue(WindowValue.Kind.TEMPERATURE_MAX_1M))
                .name("temperature-max-1m").uid("temperature-max-1m");

        vibration.union(temperature).sinkTo(sinks.windows()).name("window-board").parallelism(1);

        events.keyBy(FactoryEvent::machineId)
                .window(Windows.session(CYCLE_GAP))
                .aggregate(new CycleStats(), new ToRunCycle())
                .name("run-cycles").uid("run-cycles")
                .sinkTo(sinks.cycles()).name("cycle-board").parallelism(1);

        vibration.getSideOutput(LATE).union(temperature.getSideOutput(LATE))
                .sinkTo(sinks.late()).name("late-readings").parallelism(1);

        DataStream<Alert> alerts = SpikeThenDrop.alerts(readings.keyBy(SensorReading::machineId), LATE_FOR_ALERTS)
                .name(SpikeThenDrop.OPERATOR).uid(SpikeThenDrop.OPERATOR);
        alerts.sinkTo(sinks.alerts()).name("alert-board").parallelism(1);
        alerts.getSideOutput(LATE_FOR_ALERTS).sinkTo(sinks.lateForAlerts()).name("late-for-alerts").parallelism(1);
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public FactorySimulator simulator() {
        return simulator;
    }

    /** Turns a window's accumulator into a result row. */
    static final class ToWindowValue extends ProcessWindowFunction<double[], WindowValue, String, TimeWindow> {
        private final WindowValue.Kind kind;

        ToWindowValue(WindowValue.Kind kind) {
            this.kind = kind;
        }

        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<double[]> results, Collector<WindowValue> out) {
            for (double[] acc : results) {
                double value = kind == WindowValue.Kind.TEMPERATURE_MAX_1M ? acc[2] : acc[0] / acc[1];
                out.collect(new WindowValue(kind, machine, ctx.window().start(), ctx.window().end(), value, (long) acc[1]));
            }
        }
    }

    /** Counts the events of a run cycle and keeps its highest temperature: {@code {events, maxTemperature}}. */
    static final class CycleStats implements io.millrace.api.functions.AggregateFunction<FactoryEvent, double[], double[]> {
        @Override
        public double[] createAccumulator() {
            return new double[] {0, Double.NaN};
        }

        @Override
        public double[] add(FactoryEvent e, double[] acc) {
            acc[0]++;
            if (e instanceof SensorReading r && r.sensor() == Sensor.TEMPERATURE) {
                acc[1] = Double.isNaN(acc[1]) ? r.value() : Math.max(acc[1], r.value());
            }
            return acc;
        }

        @Override
        public double[] getResult(double[] acc) {
            return acc;
        }

        @Override
        public double[] merge(double[] a, double[] b) {
            double max = Double.isNaN(a[1]) ? b[1] : Double.isNaN(b[1]) ? a[1] : Math.max(a[1], b[1]);
            return new double[] {a[0] + b[0], max};
        }
    }

    /** Turns a session window into a run cycle. */
    static final class ToRunCycle extends ProcessWindowFunction<double[], RunCycle, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<double[]> results, Collector<RunCycle> out) {
            for (double[] acc : results) {
                // a session window ends one gap after its last event
                long lastEvent = ctx.window().end() - CYCLE_GAP.toMillis();
                out.collect(new RunCycle(machine, ctx.window().start(), lastEvent, (long) acc[0], acc[1]));
            }
        }
    }
}
