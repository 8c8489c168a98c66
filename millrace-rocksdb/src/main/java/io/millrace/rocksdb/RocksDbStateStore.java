package io.millrace.rocksdb;

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

/** User state of a {@link RocksDbKeyedStateBackend}, by descriptor; the same name gives the same state object. */
final class RocksDbStateStore implements KeyedStateStore {
    private final RocksDbKeyedStateBackend backend;

    RocksDbStateStore(RocksDbKeyedStateBackend backend) {
        this.backend = backend;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ValueState<T> getState(ValueStateDescriptor<T> d) {
        return (ValueState<T>) backend.register(d.name(), kind(d), false, d.ttl(), c -> new RocksValueState<T>(c));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ListState<T> getListState(ListStateDescriptor<T> d) {
        return (ListState<T>) backend.register(d.name(), kind(d), false, d.ttl(), c -> new RocksListState<T>(c));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> d) {
        return (MapState<UK, UV>) backend.register(d.name(), kind(d), true, d.ttl(), c -> new RocksMapState<UK, UV>(c));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <UK, UV> SortedMapState<UK, UV> getSortedMapState(SortedMapStateDescriptor<UK, UV> d) {
        return (SortedMapState<UK, UV>) backend.register(d.name(), kind(d), true, d.ttl(),
                c -> new RocksSortedMapState<UK, UV>(c, backend, d.keyType()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> d) {
        return (ReducingState<T>) backend.register(d.name(), kind(d), false, d.ttl(),
                c -> new RocksReducingState<T>(c, d.reducer()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <IN, ACC, OUT> AggregatingState<IN, OUT> getAggregatingState(AggregatingStateDescriptor<IN, ACC, OUT> d) {
        return (AggregatingState<IN, OUT>) backend.register(d.name(), kind(d), false, d.ttl(),
                c -> new RocksAggregatingState<IN, ACC, OUT>(c, d.function()));
    }

    private static String kind(StateDescriptor<?> d) {
        return d.kind().name().toLowerCase(Locale.ROOT);
    }
}
