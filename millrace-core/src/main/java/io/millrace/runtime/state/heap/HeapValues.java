package io.millrace.runtime.state.heap;

/**
 * How the heap backend keeps the values of value, list, reducing and aggregating state
 * ({@code state.heap.values}).
 */
public enum HeapValues {
    /** As the objects given: a read returns the stored object. */
    OBJECTS,
    /** Encoded into large byte arrays ({@link ValueArena}): a read decodes a copy, young collections copy nothing. */
    SERIALIZED,
    /**
     * Each state starts with objects and is encoded once it is large and its values are seldom read or replaced
     * compared with how many come in (a join's waiting rows); back to objects when that changes. Only values of
     * {@linkplain ImmutableClasses immutable} classes are ever encoded, so no caller can tell the difference but
     * by identity and by speed.
     */
    AUTO;

    /** The mode of an option value: objects, serialized or auto; fails naming the option and the value. */
    static HeapValues of(String value, String option) {
        return switch (value.trim()) {
            case "objects" -> OBJECTS;
            case "serialized" -> SERIALIZED;
            case "auto" -> AUTO;
            default -> throw new IllegalArgumentException("option '" + option + "' must be objects, serialized or auto, was '" + value + "'");
        };
    }
}
