package io.millrace.bench.kafka;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The suite's summary: per engine and part the median round by records per second (of an even count the slower of
 * the two middle ones) as a RESULT line with the spread of eps and p99 over the rounds, then per part one RATIO
 * line: Millrace's records per second over each other engine's.
 */
final class Report {
    private Report() {}

    static void print(List<String> rounds, int roundCount) {
        Map<String, List<Map<String, String>>> byRun = new LinkedHashMap<>();
        for (String line : rounds) {
            Map<String, String> f = KafkaSuite.fields(line);
            byRun.computeIfAbsent(f.get("engine") + " " + f.get("part"), k -> new ArrayList<>()).add(f);
        }
        Map<String, Map<String, Double>> eps = new LinkedHashMap<>();
        for (List<Map<String, String>> runs : byRun.values()) {
            List<Map<String, String>> sorted = new ArrayList<>(runs);
            sorted.sort(Comparator.comparingDouble(f -> Double.parseDouble(f.get("eps"))));
            Map<String, String> median = sorted.get((sorted.size() - 1) / 2);
            StringBuilder b = new StringBuilder("RESULT suite=kafka");
            for (Map.Entry<String, String> e : median.entrySet()) {
                if (!e.getKey().equals("round")) {
                    b.append(' ').append(e.getKey()).append('=').append(e.getValue());
                }
            }
            if (sorted.size() > 1) {
                b.append(" eps_spread=").append(sorted.get(0).get("eps")).append("..").append(sorted.get(sorted.size() - 1).get("eps"));
                double lo = Double.MAX_VALUE, hi = -1;
                for (Map<String, String> f : runs) {
                    if (f.containsKey("p99_ms")) {
                        double p = Double.parseDouble(f.get("p99_ms"));
                        lo = Math.min(lo, p);
                        hi = Math.max(hi, p);
                    }
                }
                if (hi >= 0) {
                    b.append(String.format(Locale.ROOT, " p99_spread=%.1f..%.1f", lo, hi));
                }
                b.append(" rounds=").append(sorted.size());
            }
            System.out.println(b);
            eps.computeIfAbsent(median.get("part"), k -> new LinkedHashMap<>()).put(median.get("engine"), Double.parseDouble(median.get("eps")));
        }
        for (Map.Entry<String, Map<String, Double>> e : eps.entrySet()) {
            Double m = e.getValue().get("millrace");
            if (m == null) {
                continue;
            }
            StringBuilder b = new StringBuilder("RATIO suite=kafka part=" + e.getKey());
            for (Map.Entry<String, Double> other : e.getValue().entrySet()) {
                if (!other.getKey().equals("millrace") && other.getValue() > 0) {
                    b.append(String.format(Locale.ROOT, " millrace_over_%s=%.2f", other.getKey().replace('-', '_'), m / other.getValue()));
                }
            }
            System.out.println(b);
        }
    }
}
