package io.millrace.bench.workload;

/** A bid on an open (or just closed) auction; price in cents. */
public record Bid(long auction, long bidder, long price, String channel, String url, long dateTime) implements Event {}
