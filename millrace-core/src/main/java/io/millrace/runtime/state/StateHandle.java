package io.millrace.runtime.state;

/**
 * One file of state written for a checkpoint: its path relative to the checkpoint storage root (absolute
 * for the files of a savepoint loaded from outside it), its length, and the CRC-32 of its bytes, checked
 * whenever it is read back.
 */
public record StateHandle(String path, long size, long crc32) implements java.io.Serializable {}
