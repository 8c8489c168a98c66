package io.millrace.api;

import io.millrace.api.metrics.JobMetrics;
import java.time.Duration;

/** How a job ended, with its final metrics. */
public record JobResult(String jobName, boolean cancelled, Duration duration, JobMetrics metrics) {}
