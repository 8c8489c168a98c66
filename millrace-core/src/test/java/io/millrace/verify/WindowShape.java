package io.millrace.verify;

import io.millrace.api.window.SessionWindows;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowAssigner;
import io.millrace.api.window.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A random event-time window shape and its batch definition: which windows a timestamp belongs to (time
 * windows), or how a key's timestamps group into sessions. This is the oracle's side, written without the
 * runtime's slice arithmetic.
 */
record WindowShape(String kind, long size, long slide, long offset, long gap) {

    static WindowShape random(Random random, String kind) {
        return switch (kind) {
            case "tumbling" -> {
                long size = 5 + random.nextInt(200);
                yield new WindowShape(kind, size, size, random.nextInt((int) size), 0);
            }
            case "sliding" -> {
                long slide = 3 + random.nextInt(60);
                long size = slide * (2 + random.nextInt(4)) + (random.nextBoolean() ? 0 : random.nextInt((int) slide));
                size = Math.max(size, slide);
                yield new WindowShape(kind, size, slide, random.nextInt((int) slide), 0);
            }
            case "session" -> new WindowShape(kind, 0, 0, 0, 2 + random.nextInt(60));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    WindowAssigner<TimeWindow> assigner() {
        if (kind.equals("session")) {
            SessionWindows s = Windows.session(Duration.ofMillis(gap));
            return s;
        }
        TimeWindows w = Windows.sliding(Duration.ofMillis(size), Duration.ofMillis(slide), Duration.ofMillis(offset));
        return w;
    }

    /** The time windows holding {@code ts}, earliest first. */
    List<TimeWindow> windowsOf(long ts) {
        List<TimeWindow> windows = new ArrayList<>();
        long lastStart = ts - Math.floorMod(ts - offset, slide);
        for (long start = lastStart; start > ts - size; start -= slide) {
            windows.add(0, new TimeWindow(start, start + size));
        }
        return windows;
    }

    /** Time windows: each window of each key with the events in it, keyed by (key, window). */
    Map<List<Object>, List<Event>> timeWindows(Collection<Event> events) {
        Map<List<Object>, List<Event>> windows = new HashMap<>();
        for (Event e : events) {
            for (TimeWindow w : windowsOf(e.ts())) {
                windows.computeIfAbsent(List.of(e.key(), w), k -> new ArrayList<>()).add(e);
            }
        }
        return windows;
    }

    /** Sessions: per key, timestamps no further apart than the gap form one window [first, last + gap). */
    Map<List<Object>, List<Event>> sessions(Collection<Event> events) {
        Map<Integer, List<Event>> byKey = new TreeMap<>();
        for (Event e : events) {
            byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
        }
        Map<List<Object>, List<Event>> windows = new HashMap<>();
        for (List<Event> list : byKey.values()) {
            list.sort(Comparator.comparingLong(Event::ts));
            List<Event> current = new ArrayList<>();
            for (Event e : list) {
                if (!current.isEmpty() && e.ts() > current.get(current.size() - 1).ts() + gap) {
                    put(windows, current);
                    current = new ArrayList<>();
                }
                current.add(e);
            }
            put(windows, current);
        }
        return windows;
    }

    private void put(Map<List<Object>, List<Event>> windows, List<Event> session) {
        Event first = session.get(0);
        long end = session.get(session.size() - 1).ts() + gap;
        windows.put(List.of(first.key(), new TimeWindow(first.ts(), end)), session);
    }

    /** The batch recomputation: every window of every key with its events. */
    Map<List<Object>, List<Event>> windows(Collection<Event> events) {
        return kind.equals("session") ? sessions(events) : timeWindows(events);
    }

    /** The window end after which a record at {@code ts} is too late for all its windows (before lateness). */
    long lastMaxTimestamp(long ts) {
        return kind.equals("session") ? ts + gap - 1 : windowsOf(ts).get(windowsOf(ts).size() - 1).maxTimestamp();
    }

    @Override
    public String toString() {
        return kind.equals("session") ? "session(gap " + gap + ")" : kind + "(size " + size + ", slide " + slide + ", offset " + offset + ")";
    }
}
