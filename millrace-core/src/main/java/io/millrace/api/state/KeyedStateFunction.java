package io.millrace.api.state;

/**
 * Work done for each key of a subtask's keyed state, from the broadcast side of a keyed broadcast connection (see
 * {@code KeyedBroadcastProcessFunction.Context#applyToKeyedState}): called once per key that has a value in the
 * state, with that key as the current key, so that {@code state} and any other keyed state of the function read and
 * write that key's values.
 */
@FunctionalInterface
public interface KeyedStateFunction<K, S extends State> {
    void process(K key, S state) throws Exception;
}
