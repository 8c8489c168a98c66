package io.millrace.testing;

/** A record an operator emitted, with its event timestamp ({@code Long.MIN_VALUE} when none). */
public record Emitted<T>(T value, long timestamp) {}
