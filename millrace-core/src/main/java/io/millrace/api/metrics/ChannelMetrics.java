package io.millrace.api.metrics;

/** Fill of one exchange channel, in batches: now, the highest ever seen, and the bound. */
public record ChannelMetrics(String from, String to, int producerSubtask, int consumerSubtask, int size, int highWater, int capacity) {}
