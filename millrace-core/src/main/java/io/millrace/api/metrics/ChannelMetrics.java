package io.millrace.api.metrics;

/**
 * Fill of one exchange channel, in batches: now, the highest ever seen, the most it can hold, and how
 * many it holds now before its producer waits (the bound its consumer set from its reading rate).
 */
public record ChannelMetrics(String from, String to, int producerSubtask, int consumerSubtask, int size, int highWater, int capacity, int bound) {}
