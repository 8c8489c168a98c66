package io.millrace.sim;

import io.millrace.api.functions.FlatMapFunction;

/**
 * An event of the simulated factory floor: a {@link SensorReading} or a {@link SpindleEvent}. Every
 * event names its machine, carries its simulated event time (epoch milliseconds; also the record's
 * source timestamp) and the machine's slot number {@code seq}, which grows with event time and is unique
 * per machine (gaps mean the machine was stopped or silent).
 *
 * <pre>{@code
 * DataStream<SensorReading> readings = events.flatMap(FactoryEvent.readings());
 * }</pre>
 */
public sealed interface FactoryEvent extends java.io.Serializable permits SensorReading, SpindleEvent {
    String machineId();

    long eventTime();

    long seq();

    /** Keeps the sensor readings of a stream of factory events. */
    static FlatMapFunction<FactoryEvent, SensorReading> readings() {
        return (event, out) -> {
            if (event instanceof SensorReading reading) {
                out.collect(reading);
            }
        };
    }

    /** Keeps the spindle events of a stream of factory events. */
    static FlatMapFunction<FactoryEvent, SpindleEvent> spindleEvents() {
        return (event, out) -> {
            if (event instanceof SpindleEvent spindle) {
                out.collect(spindle);
            }
        };
    }
}
