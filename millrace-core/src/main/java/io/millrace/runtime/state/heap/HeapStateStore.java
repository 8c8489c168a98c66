package io.millrace.runtime.state.heap;

import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import io.millrace.api.state.StateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import java.util.Locale;

/** User state of a {@link HeapKeyedStateBackend}, by descriptor; the same name gives the same state object. */
final class HeapStateStore implements KeyedStateStore {
    private final HeapKeyedStateBackend backend;

    HeapStateStore(HeapKeyedStateBackend backend) {
        this.backend = backend;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ValueState<T> getState(ValueStateDescriptor<T> d) {
        return (ValueState<T>) backend.register(d.name(), kind(d.kind()), d.ttl(), t -> new HeapValueState<T>(t));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ListState<T> getListState(ListStateDescriptor<T> d) {
        return (ListState<T>) backend.register(d.name(), kind(d.kind()), d.ttl(), t -> new HeapListState<T>(t));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> d) {
        return (MapState<UK, UV>) backend.register(d.name(), kind(d.kind()),
                () -> new HeapMapState.Table(d.name(), backend, d.ttl()),
                t -> new HeapMapState<UK, UV>((HeapMapState.Table) t));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <UK, UV> SortedMapState<UK, UV> getSortedMapState(SortedMapStateDescriptor<UK, UV> d) {
        return (SortedMapState<UK, UV>) backend.register(d.name(), kind(d.kind()),
                () -> new HeapSortedMapState.Table(d.name(), backend, d.ttl(), d.keyType(), d.keyOrder()),
                t -> new HeapSortedMapState<UK, UV>((HeapSortedMapState.Table) t));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> d) {
        return (ReducingState<T>) backend.register(d.name(), kind(d.kind()), d.ttl(),
                t -> new HeapReducingState<T>(t, d.reducer()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <IN, ACC, OUT> AggregatingState<IN, OUT> getAggregatingState(AggregatingStateDescriptor<IN, ACC, OUT> d) {
        return (AggregatingState<IN, OUT>) backend.register(d.name(), kind(d.kind()), d.ttl(),
                t -> new HeapAggregatingState<IN, ACC, OUT>(t, d.function()));
    }

    private static String kind(StateDescriptor.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
