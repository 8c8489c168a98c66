package io.millrace.connector.mqtt.sparkplug;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the Sparkplug B messages of one edge node into {@link SparkplugB#METRIC} rows; key the stream by
 * {@link SparkplugMessage#edgeNodeKey()}. What the births said is keyed state, so it is in every checkpoint:
 *
 * <ul>
 *   <li>NBIRTH starts the node afresh (its devices' metrics and every alias are forgotten) and records each metric's
 *       name, alias and datatype; DBIRTH does the same for one device. Both emit their metrics' values.
 *   <li>NDATA and DDATA emit each metric, its name resolved from the alias when only an alias was sent and its
 *       datatype from the birth when none was sent. An alias no birth named leaves the metric's name null.
 *   <li>DDEATH emits every metric the device's birth named (by name) with {@code stale} true and no value, and forgets them;
 *       NDEATH does so for the node's own metrics and those of all its devices.
 * </ul>
 */
public final class SparkplugMetrics extends KeyedProcessFunction<String, SparkplugMessage, Row> {
    /** "alias" to metric name, per edge node. */
    private transient MapState<Long, String> aliases;
    /** "device\0metric" (device empty for the node) to the datatype code. */
    private transient MapState<String, Integer> known;

    @Override
    public void open(RuntimeContext context) {
        aliases = context.state().getMapState(new MapStateDescriptor<>("sparkplug-aliases"));
        known = context.state().getMapState(new MapStateDescriptor<>("sparkplug-metrics"));
    }

    @Override
    public void processElement(SparkplugMessage m, Context<String> ctx, Collector<Row> out) {
        String device = m.device() == null ? "" : m.device();
        switch (m.type()) {
            case NBIRTH -> {
                forget(null);
                birth(m, device, out);
            }
            case DBIRTH -> {
                forget(device);
                birth(m, device, out);
            }
            case NDATA, DDATA -> {
                for (SparkplugMessage.Metric metric : m.metrics()) {
                    String name = metric.name() != null ? metric.name() : metric.alias() >= 0 ? aliases.get(metric.alias()) : null;
                    Integer type = metric.datatype() != 0 ? Integer.valueOf(metric.datatype()) : name == null ? null : known.get(device + "\0" + name);
                    out.collect(row(m, metric, name, type == null ? 0 : type, false));
                }
            }
            case DDEATH -> dead(m, device, out);
            case NDEATH -> dead(m, null, out);
            default -> throw new IllegalStateException("unknown message type " + m.type());
        }
    }

    private void birth(SparkplugMessage m, String device, Collector<Row> out) {
        for (SparkplugMessage.Metric metric : m.metrics()) {
            if (metric.name() != null) {
                known.put(device + "\0" + metric.name(), metric.datatype());
                if (metric.alias() >= 0) {
                    aliases.put(metric.alias(), metric.name());
                }
            }
            out.collect(row(m, metric, metric.name(), metric.datatype(), false));
        }
    }

    /** Emits the stale metrics of {@code device} (null: the node and all its devices) and forgets them. */
    private void dead(SparkplugMessage m, String device, Collector<Row> out) {
        for (String[] k : forget(device)) {
            SparkplugMessage.Metric stale = new SparkplugMessage.Metric(k[1], -1, -1, Integer.parseInt(k[2]), true, null);
            String d = k[0].isEmpty() ? null : k[0];
            out.collect(row(new SparkplugMessage(m.group(), m.type(), m.edgeNode(), d, m.timestamp(), m.seq(), List.of()), stale, k[1],
                    stale.datatype(), true));
        }
    }

    /** Removes what a birth of {@code device} (null: the node and its devices) recorded; returns device, name, type. */
    private List<String[]> forget(String device) {
        List<String[]> gone = new ArrayList<>();
        for (Map.Entry<String, Integer> e : known.entries()) {
            int sep = e.getKey().indexOf('\0');
            String d = e.getKey().substring(0, sep);
            if (device == null || d.equals(device)) {
                gone.add(new String[] {d, e.getKey().substring(sep + 1), Integer.toString(e.getValue())});
                known.remove(e.getKey());
            }
        }
        if (device == null) {
            for (Map.Entry<Long, String> e : aliases.entries()) {
                aliases.remove(e.getKey());
            }
        }
        gone.sort(java.util.Comparator.<String[], String>comparing(k -> k[0]).thenComparing(k -> k[1]));
        return gone;
    }

    private static Row row(SparkplugMessage m, SparkplugMessage.Metric metric, String name, int datatype, boolean stale) {
        Object v = metric.value();
        long at = metric.timestamp() >= 0 ? metric.timestamp() : m.timestamp();
        return Row.of(SparkplugB.METRIC, m.group(), m.edgeNode(), m.device(), m.type().name(), name,
                metric.alias() >= 0 ? Long.valueOf(metric.alias()) : null, SparkplugB.datatypeName(datatype),
                at >= 0 ? Long.valueOf(at) : null, m.seq() >= 0 ? Long.valueOf(m.seq()) : null, metric.isNull() && !stale, stale,
                v instanceof Long l ? l : null, v instanceof Double d ? d : null, v instanceof Boolean b ? b : null,
                v instanceof String s ? s : null);
    }
}
