package io.millrace.bench.workload;

/** A Nexmark event: a new person, a new auction or a bid. Immutable; {@link #dateTime} is its event time (ms). */
public sealed interface Event permits Person, Auction, Bid {
    long dateTime();
}
