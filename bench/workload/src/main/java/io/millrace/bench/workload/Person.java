package io.millrace.bench.workload;

/** A person registers: from then on it may sell and bid. Strings come from fixed pools (no per-event garbage). */
public record Person(long id, String name, String emailAddress, String creditCard, String city, String state, long dateTime)
        implements Event {}
