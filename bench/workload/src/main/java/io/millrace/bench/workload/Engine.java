package io.millrace.bench.workload;

import java.nio.file.Path;

/** One stream processor under test. */
public interface Engine {
    /** As in result lines: millrace, flink. */
    String name();

    /**
     * Runs {@code options.query} once over {@code input} and returns when every result has reached the sink
     * (results go to {@link Probe#newTally} tallies). {@code ratePerSecond} paces the source in total over its
     * subtasks; 0 means as fast as possible. {@code checkpointDir} is an empty directory for this run.
     */
    void run(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir) throws Exception;
}
