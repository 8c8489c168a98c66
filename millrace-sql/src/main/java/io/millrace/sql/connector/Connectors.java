package io.millrace.sql.connector;

import java.util.LinkedHashMap;
import java.util.Map;

/** The connectors tables can name, by their {@code connector} option. */
public final class Connectors {
    private static final Map<String, TableConnector> BUILT_IN = new LinkedHashMap<>();

    static {
        for (TableConnector c : new TableConnector[] {new DatagenConnector(), new PrintConnector(), new BlackholeConnector(),
                new FilesystemConnector(), new FactorySimulatorConnector()}) {
            BUILT_IN.put(c.name(), c);
        }
    }

    private Connectors() {}

    /** Checks a table's options with its connector; fails naming the option and the accepted values. */
    public static TableConnector.Opened open(String table, io.millrace.api.row.RowType type, Map<String, String> options) {
        String name = options.get("connector");
        if (name == null) {
            throw new ConnectorException("table '" + table + "' needs option 'connector': one of " + String.join(", ", BUILT_IN.keySet()));
        }
        TableConnector c = BUILT_IN.get(name);
        if (c == null) {
            throw new ConnectorException("table '" + table + "': unknown connector '" + name + "'; known connectors: "
                    + String.join(", ", BUILT_IN.keySet()));
        }
        ConnectorOptions o = new ConnectorOptions(table, options);
        TableConnector.Opened opened = c.open(type, o);
        o.checkAllUsed();
        return opened;
    }
}
