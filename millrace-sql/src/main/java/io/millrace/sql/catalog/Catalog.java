package io.millrace.sql.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tables and views of a session, by name (case-sensitive, like Flink's). Not thread-safe: a session is used
 * from one thread.
 */
public final class Catalog {
    private final Map<String, CatalogEntry> entries = new TreeMap<>();

    /** Adds {@code entry}; false if the name is taken (and nothing changes). */
    public boolean add(CatalogEntry entry) {
        return entries.putIfAbsent(entry.name(), entry) == null;
    }

    public CatalogEntry get(String name) {
        return entries.get(name);
    }

    public CatalogEntry remove(String name) {
        return entries.remove(name);
    }

    /** The names in alphabetical order. */
    public List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(entries.keySet()));
    }

    public List<CatalogEntry> entries() {
        return List.copyOf(entries.values());
    }
}
