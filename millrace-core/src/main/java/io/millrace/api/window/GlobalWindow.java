package io.millrace.api.window;

/** The one window that holds all elements of a key; it fires only through its trigger. */
public final class GlobalWindow implements Window, java.io.Serializable {
    public static final GlobalWindow INSTANCE = new GlobalWindow();

    private GlobalWindow() {}

    @Override
    public long maxTimestamp() {
        return Long.MAX_VALUE;
    }

    @Override
    public String toString() {
        return "GlobalWindow";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
