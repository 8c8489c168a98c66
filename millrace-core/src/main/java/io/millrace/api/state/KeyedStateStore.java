package io.millrace.api.state;

/**
 * Creates or gets keyed state by descriptor. The returned object is bound to the operator, not to a
 * key: it always reads and writes the value of the current key. Get it once in {@code open()}.
 */
public interface KeyedStateStore {
    <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor);

    <T> ListState<T> getListState(ListStateDescriptor<T> descriptor);

    <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> descriptor);

    /** A map per key in the order of its keys; see {@link SortedMapStateDescriptor} for the supported key types. */
    <UK, UV> SortedMapState<UK, UV> getSortedMapState(SortedMapStateDescriptor<UK, UV> descriptor);

    <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor);

    <IN, ACC, OUT> AggregatingState<IN, OUT> getAggregatingState(AggregatingStateDescriptor<IN, ACC, OUT> descriptor);
}
