package io.millrace.sim;

/**
 * The sensors of every simulated machine, with their unit and normal range while running. An injected
 * {@link Anomaly} lifts the temperature to at least 85 °C and then drops the pressure to at most 3.8 bar.
 */
public enum Sensor {
    /** Spindle vibration velocity, normally 2.0–6.0 mm/s. */
    VIBRATION("mm/s"),
    /** Bearing temperature, normally 60–70 °C. */
    TEMPERATURE("°C"),
    /** Coolant pressure, normally 5.7–6.3 bar. */
    PRESSURE("bar");

    private final String unit;

    Sensor(String unit) {
        this.unit = unit;
    }

    public String unit() {
        return unit;
    }
}
