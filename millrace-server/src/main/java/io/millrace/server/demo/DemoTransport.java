package io.millrace.server.demo;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.time.Clock;
import io.millrace.sim.SimulatorConfig;
import java.io.PrintStream;

/**
 * How the simulator's events reach the demo's pipeline when they do not come from a simulator inside it: a feed job
 * writes them into an external system (a Kafka topic, an OPC UA server's tags, an MQTT broker), and the pipeline's
 * source {@code factory-floor} reads them back. The demo command opens one, builds the pipeline with {@link #input},
 * starts the feed, and once the feed has ended stops the pipeline as soon as {@link #drained} says it has read
 * everything there is to read. All methods are called from the demo command's thread.
 */
public interface DemoTransport extends AutoCloseable {
    /** How the first line of the demo names the path, e.g. {@code through Kafka}. */
    String description();

    /** The configuration of the demo's pipeline (a transport whose source acknowledges after checkpoints turns them on). */
    default PipelineConfig pipelineConfig(int parallelism, Clock clock) {
        return new PipelineConfig().parallelism(parallelism).clock(clock);
    }

    /** The demo pipeline's input, a source named {@code factory-floor} and what turns its records into factory events. */
    FactoryDemo.Input input(SimulatorConfig sim);

    /** Starts the feed job (or returns it, when it started with the transport) that writes the simulator's events. */
    JobHandle startFeed(SimulatorConfig sim, Clock clock);

    /**
     * Whether the demo job has read all that the ended feed delivered.
     *
     * @param fed the feed job's result
     * @param demo the demo job's current metrics
     * @param millisSinceFeedEnded wall-clock time since the feed was first seen ended
     */
    boolean drained(JobResult fed, JobMetrics demo, long millisSinceFeedEnded);

    /** Prints the transport's lines of the summary; {@code fed} is null when the feed did not end. */
    void printSummary(PrintStream out, JobResult fed, JobResult demo);

    /** Stops what the transport started (a broker, a server); idempotent. */
    @Override
    void close();
}
