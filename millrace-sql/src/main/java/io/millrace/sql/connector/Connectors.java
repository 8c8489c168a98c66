package io.millrace.sql.connector;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The connectors tables can name, by their {@code connector} option: the built-in ones and those that connector modules
 * on the class path register as a {@link java.util.ServiceLoader} service of {@link TableConnector}
 * ({@code META-INF/services/io.millrace.sql.connector.TableConnector}). A registered connector cannot replace a
 * built-in one or another registered one of the same name.
 */
public final class Connectors {
    private static final Map<String, TableConnector> BUILT_IN = new LinkedHashMap<>();

    static {
        for (TableConnector c : new TableConnector[] {new DatagenConnector(), new PrintConnector(), new BlackholeConnector(),
                new FilesystemConnector(), new FactorySimulatorConnector(), new NexmarkConnector()}) {
            BUILT_IN.put(c.name(), c);
        }
        for (TableConnector c : ServiceLoader.load(TableConnector.class, Connectors.class.getClassLoader())) {
            TableConnector before = BUILT_IN.putIfAbsent(c.name(), c);
            if (before != null && before.getClass() != c.getClass()) {
                throw new IllegalStateException("two table connectors are named '" + c.name() + "': "
                        + before.getClass().getName() + " and " + c.getClass().getName());
            }
        }
    }

    private Connectors() {}

    /** The table option naming the dead-letter table for late rows of windowed queries over the table. */
    public static final String LATE_ROWS_TABLE = "late-rows.table";

    /** The options without those the planner reads for any connector ({@link #LATE_ROWS_TABLE}). */
    private static Map<String, String> withoutGeneric(Map<String, String> options) {
        if (!options.containsKey(LATE_ROWS_TABLE)) {
            return options;
        }
        Map<String, String> o = new LinkedHashMap<>(options);
        o.remove(LATE_ROWS_TABLE);
        return o;
    }

    /** Checks a table's options with its connector; fails naming the option and the accepted values. */
    public static TableConnector.Opened open(String table, io.millrace.api.row.RowType type, Map<String, String> options) {
        return open(table, type, java.util.List.of(), options);
    }

    /** The same for a table with a declared primary key ({@code PRIMARY KEY (...) NOT ENFORCED}), empty for none. */
    public static TableConnector.Opened open(String table, io.millrace.api.row.RowType type, java.util.List<String> primaryKey,
            Map<String, String> options) {
        String name = options.get("connector");
        if (name == null) {
            throw new ConnectorException("table '" + table + "' needs option 'connector': one of " + String.join(", ", BUILT_IN.keySet()));
        }
        TableConnector c = BUILT_IN.get(name);
        if (c == null) {
            throw new ConnectorException("table '" + table + "': unknown connector '" + name + "'; known connectors: "
                    + String.join(", ", BUILT_IN.keySet()));
        }
        ConnectorOptions o = new ConnectorOptions(table, withoutGeneric(options), primaryKey);
        TableConnector.Opened opened = c.open(type, o);
        o.checkAllUsed();
        return opened;
    }
}
