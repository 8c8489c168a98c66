package io.millrace.server.demo;

/** One result of a per-machine window: what was measured, over which event-time interval. */
public record WindowValue(Kind kind, String machineId, long start, long end, double value, long count) implements java.io.Serializable {
    /** The demo's windowed measures. */
    public enum Kind {
        VIBRATION_AVG_5M("vibration avg 5 min", "mm/s"),
        TEMPERATURE_MAX_1M("max temperature 1 min", "°C");

        private final String title;
        private final String unit;

        Kind(String title, String unit) {
            this.title = title;
            this.unit = unit;
        }

        public String title() {
            return title;
        }

        public String unit() {
            return unit;
        }
    }
}
