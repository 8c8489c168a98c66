package io.millrace.runtime.state.serde;

/**
 * A schema dictionary: where {@link StateSerializer}s record the shapes of the records and enums they
 * write, and find the writer's shape of a value they read. Each shape is kept once, whatever the number
 * of values; values carry only its {@link StoredShape#id() id}. A backend keeps one with its stored state
 * (a heap snapshot per key-group section, RocksDB inside the database), so that a later job, whose
 * classes may have changed, reads old values by the shape they were written with.
 *
 * <p>Called on the thread that owns the serializers using it (a task thread, or the thread writing one
 * snapshot section).
 */
public interface ShapeDictionary {
    /**
     * A serializer writes {@code shape} for the first time. {@code use} is the name of the state whose
     * values contain it, or null when it occurs in a key, map key or namespace. After this call
     * {@link #find} returns the shape. Fails when another shape has the same id (a hash collision).
     */
    void written(StoredShape shape, String use);

    /** The shape with this id, or null when the dictionary has none. */
    StoredShape find(int id);

    /** Fails unless {@code known} is null or the same shape as {@code shape}: two shapes whose ids collide. */
    static void checkSameShape(StoredShape known, StoredShape shape) {
        if (known != null && !known.equals(shape)) {
            throw new IllegalStateException("two type shapes have the same id " + Integer.toHexString(shape.id()) + ": "
                    + known.describe() + " and " + shape.describe() + "; rename one of the classes or a component");
        }
    }
}
