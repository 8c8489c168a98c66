package io.millrace.bench.workload;

/** A telemetry record: a sensor reading, a machine event or a short-lived key's event, by workload. */
public record Reading(long key, double value, long time) {}
