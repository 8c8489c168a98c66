package io.millrace.server.demo;

import io.millrace.sim.Anomaly;

/**
 * A fired alert of the demo: on {@code machineId}, a temperature reading of {@code spikeValue} °C at
 * {@code spikeAt}, then a pressure reading of {@code dropValue} bar at {@code dropAt} (event times, epoch ms).
 */
public record Alert(String machineId, long spikeAt, double spikeValue, long dropAt, double dropValue) implements java.io.Serializable {
    /** Whether this alert is {@code anomaly}: same machine, its spike reading in the spike and its drop reading in the drop. */
    public boolean isOf(Anomaly anomaly) {
        return machineId.equals(anomaly.machineId())
                && spikeAt >= anomaly.spikeStart() && spikeAt < anomaly.spikeEnd()
                && dropAt >= anomaly.dropStart() && dropAt < anomaly.dropEnd();
    }
}
