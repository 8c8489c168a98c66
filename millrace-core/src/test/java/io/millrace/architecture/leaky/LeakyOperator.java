package io.millrace.architecture.leaky;

import io.millrace.api.functions.KeySelector;
import io.millrace.runtime.state.KeyedStateBackend;

/** A fixture for the SPI rule: an operator class that reaches into the runtime's state backend. */
public final class LeakyOperator {
    private KeySelector<Object, Object> key;

    public Object currentKey(KeyedStateBackend backend) {
        return backend.currentKey();
    }
}
