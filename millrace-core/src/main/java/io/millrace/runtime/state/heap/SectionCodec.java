package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;

/**
 * The key and value serializers of one state (or timer service) in a key group section, over the
 * section's shape table: keys canonically (equal values, equal bytes), values of any supported class.
 */
record SectionCodec(StateSerializer keys, StateSerializer values) {
    static SectionCodec forWriting(ShapeTable shapes, String state) {
        ClassLoader loader = StateSerializer.userClassLoader();
        return new SectionCodec(StateSerializer.forKeys(shapes, loader, null), StateSerializer.forValues(shapes, state, loader, null));
    }

    /** {@code what} names the state or timer service, {@code operator} (null when unknown) its operator, in read errors. */
    static SectionCodec forReading(ShapeTable shapes, String what, String operator, ClassLoader loader) {
        String context = what + (operator != null ? " of operator '" + operator + "'" : "");
        return new SectionCodec(StateSerializer.forKeys(shapes, loader, "the keys of " + context),
                StateSerializer.forValues(shapes, null, loader, context));
    }
}
