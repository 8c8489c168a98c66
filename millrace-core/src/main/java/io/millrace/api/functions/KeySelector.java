package io.millrace.api.functions;

/**
 * Extracts the key of a record. Must be deterministic: the same record always gives an equal key. Keys are
 * hashed into key groups by {@link io.millrace.api.state.KeyHash}, which says which key types are allowed:
 * strings, numbers, enums, records and {@link io.millrace.api.row.Row}s of those, lists, and classes with their own
 * equals and hashCode.
 */
@FunctionalInterface
public interface KeySelector<T, K> extends java.io.Serializable {
    K getKey(T value) throws Exception;
}
