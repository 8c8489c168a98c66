package io.millrace.server.demo;

import io.millrace.sim.FactoryEvent;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SpindleEvent;
import io.millrace.sim.SpindleState;
import java.nio.charset.StandardCharsets;

/**
 * The demo's text form of a factory event in a Kafka record's value, one line of {@code |}-separated fields:
 * {@code R|machine|sensor|value|eventTime|seq} for a sensor reading, {@code S|machine|state|eventTime|seq} for a
 * spindle event (sensor and state by their enum names, times in epoch milliseconds).
 */
public final class FactoryEventCodec {
    private FactoryEventCodec() {}

    public static byte[] encode(FactoryEvent event) {
        String text;
        if (event instanceof SensorReading r) {
            text = "R|" + r.machineId() + '|' + r.sensor().name() + '|' + r.value() + '|' + r.eventTime() + '|' + r.seq();
        } else {
            SpindleEvent s = (SpindleEvent) event;
            text = "S|" + s.machineId() + '|' + s.state().name() + '|' + s.eventTime() + '|' + s.seq();
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes {@link #encode}'s form; throws {@link IllegalArgumentException} naming what is wrong otherwise. */
    public static FactoryEvent decode(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("no value (a tombstone) where a factory event was expected");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String[] f = text.split("\\|", -1);
        if (f.length == 6 && f[0].equals("R")) {
            return new SensorReading(f[1], enumField(Sensor.class, f[2], "sensor", text), number(f[3], "value", text),
                    longField(f[4], "event time", text), longField(f[5], "seq", text));
        }
        if (f.length == 5 && f[0].equals("S")) {
            return new SpindleEvent(f[1], enumField(SpindleState.class, f[2], "spindle state", text),
                    longField(f[3], "event time", text), longField(f[4], "seq", text));
        }
        throw new IllegalArgumentException("not a factory event (expected R|machine|sensor|value|time|seq or "
                + "S|machine|state|time|seq): '" + text + "'");
    }

    private static <E extends Enum<E>> E enumField(Class<E> type, String value, String field, String text) {
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown " + field + " '" + value + "' in '" + text + "'");
        }
    }

    private static double number(String value, String field, String text) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " is not a number: '" + value + "' in '" + text + "'");
        }
    }

    private static long longField(String value, String field, String text) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " is not an integer: '" + value + "' in '" + text + "'");
        }
    }
}
