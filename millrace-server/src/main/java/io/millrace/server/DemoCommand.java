package io.millrace.server;

import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.time.Clock;
import io.millrace.server.demo.DemoConsole;
import io.millrace.server.demo.DemoTransport;
import io.millrace.server.demo.FactoryDemo;
import io.millrace.server.demo.KafkaDemo;
import io.millrace.server.demo.MqttDemo;
import io.millrace.server.demo.OpcUaDemo;
import io.millrace.sim.SimulatorConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code millrace demo}: the factory-floor simulator through an embedded pipeline. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a simulated factory floor through an embedded pipeline: per machine, 5-minute sliding averages of",
            "vibration every 30 s, the maximum temperature per minute, run cycles (session windows), and an alert",
            "per injected fault (a pattern: temperature spike, then pressure drop within 30 s); late readings are",
            "counted. Simulated time runs --speedup times faster than the wall clock. Ctrl-C stops it."
        })
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--duration", defaultValue = "30s", description = "How long to run (wall clock), e.g. 30s, 2m. Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(names = "--seed", defaultValue = "42", description = "Simulator seed; the same seed gives the same events. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--rate", defaultValue = "20000", description = "Sensor slots per second (wall clock) over all machines; stopped or silent machines report nothing, so fewer events arrive. Default: ${DEFAULT-VALUE}.")
    long rate;

    @Option(names = "--machines", defaultValue = "8", description = "Number of machines. Default: ${DEFAULT-VALUE}.")
    int machines;

    @Option(names = "--speedup", defaultValue = "60", description = "Simulated seconds per wall-clock second. Default: ${DEFAULT-VALUE}.")
    double speedup;

    @Option(names = "--parallelism", description = "Subtasks per operator. Default: the number of cores.")
    Integer parallelism;

    @Option(names = "--status-every", defaultValue = "2s", description = "Interval of the status line. Default: ${DEFAULT-VALUE}.")
    Duration statusEvery;

    @Option(names = "--quiet", description = "Print only status lines and the summary.")
    boolean quiet;

    @Option(names = "--kafka", description = "Go through Kafka: a feed job writes the simulator's events to a topic and the pipeline reads them from it. Starts a local broker unless --bootstrap-servers is given.")
    boolean kafka;

    @Option(names = "--bootstrap-servers", description = "With --kafka: the broker to use (host:port,...) instead of a local one.")
    String bootstrapServers;

    @Option(names = "--topic", defaultValue = "factory-events", description = "With --kafka: the topic of the events; created if missing. Default: ${DEFAULT-VALUE}.")
    String topic;

    @Option(names = "--opcua", description = "Go through OPC UA: the simulator's machines are served as tags by an OPC UA server the demo starts on 127.0.0.1, and the pipeline subscribes to them (browsing the Factory folder).")
    boolean opcua;

    @Option(names = "--mqtt", description = "Go through MQTT: the demo starts a Mosquitto broker on 127.0.0.1 (Debian's mosquitto package), publishes every reading as JSON to factory/<machine>/<sensor> at QoS 1, and the pipeline reads them (QoS 1, acknowledged after checkpoints).")
    boolean mqtt;

    @Option(names = "--sparkplug", description = "With --mqtt: publish Sparkplug B instead of JSON (births, then one DDATA per reading, to spBv1.0/factory/DDATA/gateway/<machine>).")
    boolean sparkplug;

    @Option(names = "--mosquitto", paramLabel = "PATH", description = "With --mqtt: the mosquitto binary to run. Default: mosquitto on the PATH, else /usr/sbin/mosquitto (Debian's package mosquitto).")
    String mosquitto;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        if (duration.isNegative() || duration.isZero()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--duration must be positive, was " + duration);
        }
        if (speedup <= 0 || rate < speedup) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--rate must be at least --speedup (one event per simulated second), was rate " + rate + ", speedup " + speedup);
        }
        long simulatedMillis = (long) (duration.toMillis() * speedup);
        SimulatorConfig sim = SimulatorConfig.builder()
                .seed(seed)
                .machines(machines)
                .eventsPerSecond(Math.max(1, Math.round(rate / speedup)))
                .speedup(speedup)
                .duration(Duration.ofMillis(simulatedMillis))
                .build();
        if (bootstrapServers != null && !kafka) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--bootstrap-servers needs --kafka");
        }
        if (sparkplug && !mqtt) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sparkplug needs --mqtt");
        }
        if (mosquitto != null && !mqtt) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--mosquitto needs --mqtt");
        }
        if ((kafka ? 1 : 0) + (opcua ? 1 : 0) + (mqtt ? 1 : 0) > 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "choose one of --kafka, --opcua and --mqtt");
        }
        int p = parallelism != null ? parallelism : Runtime.getRuntime().availableProcessors();
        String through = kafka ? "through Kafka" : opcua ? "through OPC UA" : mqtt ? (sparkplug ? "through MQTT (Sparkplug B)" : "through MQTT") : null;
        out.printf(Locale.ROOT, "Millrace demo: %d machines, %,d events/s, %.0fx simulated time, %s, seed %d, parallelism %d%s%n",
                machines, rate, speedup, duration, seed, p, through == null ? "" : ", " + through);
        if (through == null) {
            return run(out, sim, p, null);
        }
        DemoTransport transport;
        try {
            transport = kafka ? KafkaDemo.open(bootstrapServers, topic, p, out)
                    : opcua ? OpcUaDemo.open(sim, out) : MqttDemo.open(sparkplug, mosquitto, out);
        } catch (MqttDemo.BrokerMissingException e) {
            spec.commandLine().getErr().println("millrace demo: " + e.getMessage());
            return 2;
        }
        try (transport) {
            return run(out, sim, p, transport);
        }
    }

    /** Runs the demo job, and with a {@code transport} the feed job beside it; prints status lines and the summary. */
    private int run(PrintStream out, SimulatorConfig sim, int p, DemoTransport transport) throws Exception {
        DemoConsole console = new DemoConsole(out, quiet);
        Clock clock = Clock.system();
        FactoryDemo demo = transport == null ? new FactoryDemo(sim, p, clock, console.sinks())
                : new FactoryDemo(sim, transport.pipelineConfig(p, clock), console.sinks(), transport.input(sim));
        JobHandle job = demo.pipeline().executeAsync("factory-demo");
        JobHandle feed;
        try {
            feed = transport == null ? null : transport.startFeed(sim, clock);
        } catch (RuntimeException e) {
            job.cancel();
            job.await(Duration.ofSeconds(20));
            throw e;
        }
        CountDownLatch summaryPrinted = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            if (feed != null) {
                feed.cancel();
            }
            job.cancel();
            try {
                summaryPrinted.await(java.util.concurrent.TimeUnit.SECONDS.toMillis(10), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "millrace-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        long start = clock.millis();
        StatusLine status = new StatusLine(out, clock, sim.startTime(), speedup, console);
        JobResult result;
        JobResult fed = null;
        long fedAt = 0;
        boolean drained = false;
        try {
            while (true) {
                result = job.await(statusEvery);
                if (result != null) {
                    break;
                }
                status.print(job.metrics());
                if (feed != null && fed == null) {
                    fed = awaitFeed(feed, job, Duration.ZERO);
                    fedAt = clock.millis();
                }
                if (fed != null && transport.drained(fed, job.metrics(), clock.millis() - fedAt)) {
                    drained = true;
                    job.cancel(); // an external source runs on: stop once it has read all the feed delivered
                }
                if (clock.millis() - start > duration.toMillis() + 30_000) {
                    job.cancel(); // the simulator is bounded; this only guards a stuck run
                }
            }
            status.print(result.metrics());
            printSummary(out, result, result.cancelled() && !drained, console, demo, clock.millis() - start);
            if (transport != null) {
                if (fed == null) {
                    feed.cancel();
                    fed = awaitFeed(feed, job, Duration.ofSeconds(30));
                }
                transport.printSummary(out, fed, result);
            }
        } finally {
            summaryPrinted.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the summary above
            }
        }
        return 0;
    }

    /** The feed job's result, null while it runs; when it failed, the demo job is cancelled and the failure thrown. */
    private static JobResult awaitFeed(JobHandle feed, JobHandle job, Duration timeout) throws InterruptedException {
        try {
            return feed.await(timeout);
        } catch (JobExecutionException e) {
            job.cancel();
            throw e;
        }
    }

    private static void printSummary(PrintStream out, JobResult result, boolean stoppedEarly, DemoConsole console, FactoryDemo demo, long wallMillis) {
        JobMetrics m = result.metrics();
        long events = m.sum("factory-floor", om -> om.recordsOut());
        long lateDropped = m.operators().stream().mapToLong(om -> om.lateRecordsDropped()).sum();
        out.println();
        out.printf(Locale.ROOT, "Summary%s%n", stoppedEarly ? " (stopped early)" : "");
        out.printf(Locale.ROOT, "  events          %,d in %.1f s (%,.0f events/s)%n", events, wallMillis / 1000.0, events * 1000.0 / Math.max(1, wallMillis));
        out.printf(Locale.ROOT, "  window results  %,d%n", console.windowResults());
        out.printf(Locale.ROOT, "  run cycles      %,d%n", console.cycles());
        out.printf(Locale.ROOT, "  late readings   %,d diverted to the late side output, %,d dropped%n", console.late(), lateDropped);
        out.print(console.alertSummary(demo));
    }

    /** The periodic status line: throughput, watermark lag in event time, late readings. */
    static final class StatusLine {
        private final PrintStream out;
        private final Clock clock;
        private final long simStart;
        private final double speedup;
        private final DemoConsole console;
        private final long wallStart;
        private long lastEvents;
        private long lastMillis;

        StatusLine(PrintStream out, Clock clock, long simStart, double speedup, DemoConsole console) {
            this.out = out;
            this.clock = clock;
            this.simStart = simStart;
            this.speedup = speedup;
            this.console = console;
            this.wallStart = clock.millis();
            this.lastMillis = wallStart;
        }

        void print(JobMetrics m) {
            long now = clock.millis();
            long events = m.sum("factory-floor", om -> om.recordsOut());
            double rate = (events - lastEvents) * 1000.0 / Math.max(1, now - lastMillis);
            lastEvents = events;
            lastMillis = now;
            long watermark = Math.min(m.watermark("vibration-avg-5m"), m.watermark("temperature-max-1m"));
            long simNow = simStart + (long) ((now - wallStart) * speedup);
            String lag = watermark == Long.MIN_VALUE ? "-" : watermark == Long.MAX_VALUE ? "0.0 s (input ended)"
                    : String.format(Locale.ROOT, "%.1f s", Math.max(0, simNow - watermark) / 1000.0);
            String simTime = watermark == Long.MIN_VALUE || watermark == Long.MAX_VALUE ? "-" : DemoConsole.time(watermark);
            out.printf(Locale.ROOT, "status  %,9.0f events/s  watermark %s  lag %s  late %,d%n", rate, simTime, lag, console.late());
        }
    }
}
