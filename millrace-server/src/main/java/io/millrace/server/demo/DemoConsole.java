package io.millrace.server.demo;

import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import io.millrace.sim.SensorReading;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prints the demo's results as they become final: one line per measure and window end with every
 * machine's value, one line per finished run cycle; counts what it printed for the summary. The sinks it
 * makes run with parallelism 1 in this JVM and share this object.
 */
public final class DemoConsole {
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final PrintStream out;
    private final boolean quiet;
    final AtomicLong windowResults = new AtomicLong();
    final AtomicLong windowLines = new AtomicLong();
    final AtomicLong cycles = new AtomicLong();
    final AtomicLong late = new AtomicLong();
    final AtomicLong hotMachines = new AtomicLong();

    public DemoConsole(PrintStream out, boolean quiet) {
        this.out = out;
        this.quiet = quiet;
    }

    public static String time(long epochMillis) {
        return TIME.format(Instant.ofEpochMilli(epochMillis));
    }

    synchronized void println(String line) {
        if (!quiet) {
            out.println(line);
        }
    }

    public FactoryDemo.Sinks sinks() {
        return new FactoryDemo.Sinks(windowBoard(), cycleBoard(), lateCounter());
    }

    public long windowResults() {
        return windowResults.get();
    }

    public long cycles() {
        return cycles.get();
    }

    public long late() {
        return late.get();
    }

    private Sink<WindowValue> windowBoard() {
        return (Sink<WindowValue>) ctx -> new WindowBoard();
    }

    /** Groups window results by measure and window end; prints a group once the watermark passed it. */
    private final class WindowBoard implements SinkWriter<WindowValue> {
        private final Map<WindowValue.Kind, TreeMap<Long, List<WindowValue>>> pending = new java.util.EnumMap<>(WindowValue.Kind.class);

        @Override
        public void write(WindowValue v, long timestamp) {
            windowResults.incrementAndGet();
            pending.computeIfAbsent(v.kind(), k -> new TreeMap<>()).computeIfAbsent(v.end(), e -> new ArrayList<>()).add(v);
        }

        @Override
        public void onWatermark(long watermark) {
            printUpTo(watermark);
        }

        @Override
        public void flush(boolean endOfInput) {
            if (endOfInput) {
                printUpTo(Long.MAX_VALUE);
            }
        }

        private void printUpTo(long watermark) {
            for (Map.Entry<WindowValue.Kind, TreeMap<Long, List<WindowValue>>> e : pending.entrySet()) {
                TreeMap<Long, List<WindowValue>> byEnd = e.getValue();
                while (!byEnd.isEmpty() && byEnd.firstKey() - 1 <= watermark) {
                    Map.Entry<Long, List<WindowValue>> group = byEnd.pollFirstEntry();
                    println(format(e.getKey(), group.getKey(), group.getValue()));
                    windowLines.incrementAndGet();
                }
            }
        }

        @Override
        public void close() {}
    }

    private String format(WindowValue.Kind kind, long end, List<WindowValue> values) {
        values.sort(java.util.Comparator.comparing(WindowValue::machineId));
        StringBuilder b = new StringBuilder();
        b.append('[').append(time(end)).append("] ").append(String.format(Locale.ROOT, "%-22s", kind.title()));
        for (WindowValue v : values) {
            boolean hot = kind == WindowValue.Kind.TEMPERATURE_MAX_1M && v.value() >= 85;
            if (hot) {
                hotMachines.incrementAndGet();
            }
            b.append(' ').append(v.machineId()).append(' ').append(String.format(Locale.ROOT, "%.1f", v.value())).append(hot ? "!" : "");
        }
        b.append("  ").append(kind.unit());
        return b.toString();
    }

    private Sink<RunCycle> cycleBoard() {
        return (Sink<RunCycle>) ctx -> new SinkWriter<>() {
            @Override
            public void write(RunCycle c, long timestamp) {
                cycles.incrementAndGet();
                long secs = c.durationMillis() / 1000;
                String maxTemp = Double.isNaN(c.maxTemperature()) ? "-" : String.format(Locale.ROOT, "%.1f °C", c.maxTemperature());
                println(String.format(Locale.ROOT, "[%s] run cycle %s  %s–%s (%dm%02ds)  %,d events  max temperature %s",
                        time(c.end()), c.machineId(), time(c.start()), time(c.end()), secs / 60, secs % 60, c.events(), maxTemp));
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }

    private Sink<SensorReading> lateCounter() {
        return (Sink<SensorReading>) ctx -> new SinkWriter<>() {
            @Override
            public void write(SensorReading r, long timestamp) {
                late.incrementAndGet();
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
