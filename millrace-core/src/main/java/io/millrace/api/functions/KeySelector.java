package io.millrace.api.functions;

/**
 * Extracts the key of a record. Must be deterministic: the same record always gives an equal key,
 * with a stable {@code hashCode} (no identity hash codes, no enums' hash codes across JVMs: use their name).
 */
@FunctionalInterface
public interface KeySelector<T, K> extends java.io.Serializable {
    K getKey(T value) throws Exception;
}
