package io.millrace.server.demo;

import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import io.millrace.sim.Anomaly;
import io.millrace.sim.FactorySimulator;
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
 * machine's value, one line per finished run cycle, one line per alert as it fires (a match of
 * {@link SpikeThenDrop} that is no repeat, see {@link #isRepeat}); counts what it printed for the summary and
 * scores the alerts against the simulator's ground truth. The sinks it makes run with
 * parallelism 1 in this JVM and share this object.
 */
public final class DemoConsole {
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final PrintStream out;
    private final boolean quiet;
    final AtomicLong windowResults = new AtomicLong();
    final AtomicLong windowLines = new AtomicLong();
    final AtomicLong cycles = new AtomicLong();
    final AtomicLong late = new AtomicLong();
    final AtomicLong lateForAlerts = new AtomicLong();
    final AtomicLong hotMachines = new AtomicLong();
    /** Every match of the pattern, and the alerts printed: the matches that are no repeat. */
    private final List<Alert> matches = new ArrayList<>();
    private final List<Alert> alerts = new ArrayList<>();
    private final Map<String, Alert> lastAlert = new java.util.HashMap<>();
    /** The watermark the alert board has seen: every alert up to it has fired. */
    private volatile long alertsFinalUpTo = Long.MIN_VALUE;

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
        return new FactoryDemo.Sinks(windowBoard(), cycleBoard(), counter(late), alertBoard(), counter(lateForAlerts));
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

    /** Readings that reached the alert pattern behind the watermark: not matched. */
    public long lateForAlerts() {
        return lateForAlerts.get();
    }

    /** The alerts fired so far, in the order they fired. */
    public synchronized List<Alert> alerts() {
        return List.copyOf(alerts);
    }

    /** Every match of the pattern so far, repeats included. */
    public synchronized List<Alert> matches() {
        return List.copyOf(matches);
    }

    /**
     * Whether {@code next} repeats the alert {@code previous} of the same machine: its spike reading is less than
     * the pattern's 30 s after the previous one's. When the pressure drop starts while the temperature is still
     * high, the hot readings after the first low one start new matches of the same fault, with the next low
     * readings; such a match is counted, not printed.
     */
    static boolean isRepeat(Alert previous, Alert next) {
        return previous != null && previous.machineId().equals(next.machineId())
                && next.spikeAt() - previous.spikeAt() < SpikeThenDrop.WITHIN.toMillis();
    }

    private synchronized void fired(Alert match) {
        matches.add(match);
        if (!isRepeat(lastAlert.get(match.machineId()), match)) {
            lastAlert.put(match.machineId(), match);
            alerts.add(match);
            println(alertLine(match));
        }
    }

    /** The line printed for an alert: machine, then the spike's and the drop's time and value. */
    public static String alertLine(Alert a) {
        return String.format(Locale.ROOT, "[%s] ALERT %s  temperature %.1f °C at %s, then pressure %.1f bar at %s",
                time(a.dropAt()), a.machineId(), a.spikeValue(), time(a.spikeAt()), a.dropValue(), time(a.dropAt()));
    }

    /**
     * The alerts against the ground truth. {@code injected}: the anomalies entirely inside the run and ended by
     * {@code upTo} (the watermark the alerts are final to; {@code Long.MAX_VALUE} once the input ended), plus any
     * other one that was alerted (in progress at the start, or unfinished when the run stopped); {@code detected}:
     * those of them with an alert; {@code repeats}: matches folded into an earlier alert; {@code falseAlarms}:
     * matches that belong to no anomaly.
     */
    public record Score(int injected, int detected, int alerts, int repeats, int falseAlarms, long upTo) {}

    public Score score(FactoryDemo demo) {
        long upTo = alertsFinalUpTo;
        FactorySimulator sim = demo.simulator();
        long start = sim.config().startTime();
        if (sim.config().durationMillis() < 0 && upTo == Long.MAX_VALUE) {
            throw new IllegalStateException("scoring the alerts needs the simulator option 'duration' once the input ended");
        }
        long end = sim.config().durationMillis() >= 0 ? start + sim.config().durationMillis() : Math.max(start, upTo);
        List<Anomaly> all = upTo == Long.MIN_VALUE ? List.of() : sim.anomalies(Long.MIN_VALUE, end);
        List<Alert> matches;
        int printed;
        synchronized (this) {
            matches = List.copyOf(this.matches);
            printed = alerts.size();
        }
        return score(all, matches, printed, start, Math.min(end, upTo), upTo);
    }

    /**
     * Scores the matches {@code fired}, of which {@code printed} were alerts, against the anomalies {@code all};
     * those with a spike before {@code from} or a drop ending after {@code to} count only if alerted.
     */
    static Score score(List<Anomaly> all, List<Alert> fired, int printed, long from, long to, long upTo) {
        java.util.Set<Anomaly> injected = new java.util.LinkedHashSet<>();
        for (Anomaly a : all) {
            if (a.spikeStart() >= from && a.dropEnd() <= to) {
                injected.add(a);
            }
        }
        int falseAlarms = 0;
        for (Alert alert : fired) {
            java.util.Optional<Anomaly> of = all.stream().filter(alert::isOf).findFirst();
            if (of.isPresent()) {
                injected.add(of.get());
            } else {
                falseAlarms++;
            }
        }
        int detected = (int) injected.stream().filter(a -> fired.stream().anyMatch(alert -> alert.isOf(a))).count();
        return new Score(injected.size(), detected, printed, fired.size() - printed, falseAlarms, upTo);
    }

    /** The summary's lines about anomalies and alerts, each ending with a line separator. */
    public String alertSummary(FactoryDemo demo) {
        Score s = score(demo);
        String upTo = s.upTo() == Long.MAX_VALUE ? "" : s.upTo() == Long.MIN_VALUE ? ", none counted: no watermark reached the alerts"
                : ", counted up to " + time(s.upTo()) + " where the run stopped";
        return String.format(Locale.ROOT, "  anomalies       %,d injected by the simulator (temperature spike, then pressure drop)%s%n", s.injected(), upTo)
                + String.format(Locale.ROOT, "  alerts          %,d fired (%,d repeat matches not printed): %,d of %,d anomalies detected, %,d false alarms%n",
                        s.alerts(), s.repeats(), s.detected(), s.injected(), s.falseAlarms())
                + String.format(Locale.ROOT, "                  %,d readings arrived behind the watermark: counted, not matched%n", lateForAlerts());
    }

    private Sink<Alert> alertBoard() {
        return (Sink<Alert>) ctx -> new SinkWriter<>() {
            @Override
            public void write(Alert a, long timestamp) {
                fired(a);
            }

            @Override
            public void onWatermark(long watermark) {
                alertsFinalUpTo = Math.max(alertsFinalUpTo, watermark);
            }

            @Override
            public void flush(boolean endOfInput) {
                if (endOfInput) {
                    alertsFinalUpTo = Long.MAX_VALUE;
                }
            }

            @Override
            public void close() {}
        };
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

    private static Sink<SensorReading> counter(AtomicLong count) {
        return (Sink<SensorReading>) ctx -> new SinkWriter<>() {
            @Override
            public void write(SensorReading r, long timestamp) {
                count.incrementAndGet();
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
