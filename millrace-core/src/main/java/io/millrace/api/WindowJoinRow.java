package io.millrace.api;

/** A row of a window join's input, with the side it came from; kept in the join window's state. */
record WindowJoinRow(boolean isLeft, Object value) implements java.io.Serializable {}
