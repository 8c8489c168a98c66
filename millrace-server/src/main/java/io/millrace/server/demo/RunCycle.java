package io.millrace.server.demo;

/** One run cycle of a machine, from a session window over its events. */
public record RunCycle(String machineId, long start, long end, long events, double maxTemperature) implements java.io.Serializable {
    public long durationMillis() {
        return end - start;
    }
}
