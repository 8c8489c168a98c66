/**
 * Complex event processing: patterns over the events of each key of a keyed stream, matched by a non-deterministic
 * finite automaton in event time (or processing time), with partial matches and a shared buffer of their events in
 * keyed state. Start with {@link io.millrace.cep.Pattern} and {@link io.millrace.cep.CEP#pattern}; docs/cep.md
 * describes the semantics. Built on the operator SPI ({@code io.millrace.operator}), the public API and the JDK only.
 */
package io.millrace.cep;
