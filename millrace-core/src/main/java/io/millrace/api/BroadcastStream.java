package io.millrace.api;

import io.millrace.api.state.MapStateDescriptor;
import java.util.List;

/**
 * A stream whose every record goes to every subtask of the operator it is connected to, together with the broadcast
 * states that operator keeps: made by {@link DataStream#broadcast(MapStateDescriptor...)}, used by
 * {@link DataStream#connect(BroadcastStream)}. See docs/broadcast-state.md.
 */
public final class BroadcastStream<T> {
    final DataStream<T> stream;
    final List<MapStateDescriptor<?, ?>> descriptors;

    BroadcastStream(DataStream<T> stream, List<MapStateDescriptor<?, ?>> descriptors) {
        this.stream = stream;
        this.descriptors = List.copyOf(descriptors);
    }

    /** The broadcast states' descriptors, in the order given. */
    public List<MapStateDescriptor<?, ?>> descriptors() {
        return descriptors;
    }
}
