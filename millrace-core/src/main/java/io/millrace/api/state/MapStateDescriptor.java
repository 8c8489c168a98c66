package io.millrace.api.state;

/** Describes a {@link MapState}. */
public final class MapStateDescriptor<UK, UV> extends StateDescriptor<MapState<UK, UV>> {
    public MapStateDescriptor(String name) {
        super(name);
    }

    @Override
    public Kind kind() {
        return Kind.MAP;
    }
}
