package io.millrace.server.demo;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.time.Clock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.opcua.FactoryFloorServer;
import io.millrace.connector.opcua.OpcUaRecord;
import io.millrace.connector.opcua.OpcUaSource;
import io.millrace.sim.SimulatorConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The demo through OPC UA: a {@link FactoryFloorServer} on 127.0.0.1 and a free port serves the simulator's machines
 * as tags ({@code Factory/<machine>/Temperature}, {@code Vibration}, {@code Pressure}, {@code Spindle}) and plays the
 * simulator into them from the moment it is opened; the demo's pipeline subscribes to every tag below the
 * {@code Factory} folder and turns the changes back into factory events. OPC UA carries the latest value of a tag
 * per sampling interval, not every event: the pipeline sees a sample of the simulator's readings.
 */
public final class OpcUaDemo implements DemoTransport {
    /** How often the server samples each tag, and sends what changed. */
    static final Duration SAMPLING = Duration.ofMillis(10);
    static final Duration PUBLISHING = Duration.ofMillis(50);
    /** After the feed ended, the pipeline is stopped once this has passed (several publishing intervals). */
    static final long DRAIN_MILLIS = 2_000;

    private final FactoryFloorServer floor;
    private final int tags;

    private OpcUaDemo(FactoryFloorServer floor, int tags) {
        this.floor = floor;
        this.tags = tags;
    }

    /** Starts the server and its feed of {@code sim} on 127.0.0.1 and a free port. */
    public static OpcUaDemo open(SimulatorConfig sim, PrintStream out) throws Exception {
        out.println("OPC UA: starting the factory floor's server ...");
        FactoryFloorServer floor = FactoryFloorServer.start(sim, "127.0.0.1", 0);
        out.println("OPC UA: serving " + sim.machines() * 4 + " tags at " + floor.endpoint() + ", folder " + floor.factoryFolder());
        return new OpcUaDemo(floor, sim.machines() * 4);
    }

    public String endpoint() {
        return floor.endpoint();
    }

    @Override
    public String description() {
        return "through OPC UA";
    }

    /** A subscription to every tag below the factory folder; event time from the source timestamps. */
    @Override
    public FactoryDemo.Input input(SimulatorConfig sim) {
        OpcUaSource source = OpcUaSource.builder()
                .endpoint(floor.endpoint())
                .browse(floor.factoryFolder())
                .samplingInterval(SAMPLING)
                .publishingInterval(PUBLISHING)
                .build();
        WatermarkStrategy<OpcUaRecord> watermarks = WatermarkStrategy.<OpcUaRecord>boundedOutOfOrderness(sim.maxOutOfOrderness())
                .withIdleness(Duration.ofSeconds(5));
        return pipeline -> pipeline.fromSource(source, watermarks, "factory-floor").uid("factory-floor")
                .flatMap(FactoryFloorServer.toFactoryEvents()).name("opcua-events");
    }

    /** The server's feed, started with it. */
    @Override
    public JobHandle startFeed(SimulatorConfig sim, Clock clock) {
        return floor.feed();
    }

    /** A subscription has no end: once the feed has ended, a few publishing intervals are given to what is in flight. */
    @Override
    public boolean drained(JobResult fed, JobMetrics demo, long millisSinceFeedEnded) {
        return millisSinceFeedEnded >= DRAIN_MILLIS;
    }

    @Override
    public void printSummary(PrintStream out, JobResult fed, JobResult demo) {
        long written = fed == null ? -1 : fed.metrics().sum("factory", om -> om.recordsOut());
        long changes = demo.metrics().sum("factory-floor", om -> om.recordsOut());
        long events = demo.metrics().sum("opcua-events", om -> om.recordsOut());
        out.printf(Locale.ROOT, "  opc ua          %,d simulator events written to %d tags at %s, %,d changes read, %,d events made of them%n",
                written, tags, floor.endpoint(), changes, events);
        out.printf(Locale.ROOT, "                  (a tag holds the latest value: the server sends it once per %d ms sampling interval at most)%n",
                SAMPLING.toMillis());
    }

    @Override
    public void close() {
        floor.close();
    }
}
