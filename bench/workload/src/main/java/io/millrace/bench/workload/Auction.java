package io.millrace.bench.workload;

/** A seller opens an auction that closes at {@code expires} (event time, ms). */
public record Auction(long id, String itemName, String description, long initialBid, long reserve, long dateTime,
        long expires, long seller, long category) implements Event {}
