package io.millrace.api.state;

import java.util.Map;

/** A map per key. With TTL, each entry expires on its own. */
public interface MapState<UK, UV> extends State {
    UV get(UK key);

    void put(UK key, UV value);

    void remove(UK key);

    boolean contains(UK key);

    /** A snapshot of the live entries; changing the state while iterating is allowed. */
    Iterable<Map.Entry<UK, UV>> entries();

    boolean isEmpty();
}
