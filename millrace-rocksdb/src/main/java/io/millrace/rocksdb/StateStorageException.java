package io.millrace.rocksdb;

/** RocksDB failed to read or write state; names the state (or store) and carries RocksDB's status. */
public final class StateStorageException extends RuntimeException {
    public StateStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
