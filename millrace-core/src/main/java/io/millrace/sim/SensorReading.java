package io.millrace.sim;

/** A measurement of one sensor of a running machine; {@code value} is in the sensor's {@link Sensor#unit()}. */
public record SensorReading(String machineId, Sensor sensor, double value, long eventTime, long seq)
        implements FactoryEvent {}
