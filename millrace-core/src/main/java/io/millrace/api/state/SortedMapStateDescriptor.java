package io.millrace.api.state;

import java.util.Comparator;
import java.util.Objects;

/**
 * Describes a {@link SortedMapState}. The map key type is given explicitly and fixes the order:
 *
 * <ul>
 *   <li>{@code Integer}, {@code Long}: ascending numeric order (negative before positive);</li>
 *   <li>{@code String}: ascending order of Unicode code points, which is the order of their UTF-8 bytes
 *       (it differs from {@link String#compareTo} only for characters beyond U+FFFF).</li>
 * </ul>
 *
 * Other key types are refused when the descriptor is made: the RocksDB backend keeps map keys in an
 * encoding whose byte order is this order, so that range scans are ordered scans of its rows.
 */
public final class SortedMapStateDescriptor<UK, UV> extends StateDescriptor<SortedMapState<UK, UV>> {
    private final Class<UK> keyType;

    /** Fails naming the state when {@code keyType} is not Integer, Long or String. */
    public SortedMapStateDescriptor(String name, Class<UK> keyType) {
        super(name);
        this.keyType = Objects.requireNonNull(keyType, "key type");
        if (keyType != Integer.class && keyType != Long.class && keyType != String.class) {
            throw new IllegalArgumentException("sorted map state '" + name + "': map keys of type " + keyType.getName()
                    + " have no defined order; supported key types are java.lang.Integer, java.lang.Long and java.lang.String");
        }
    }

    /** The class of the map keys. */
    public Class<UK> keyType() {
        return keyType;
    }

    /** The order of the map keys, as documented above. */
    @SuppressWarnings("unchecked")
    public Comparator<UK> keyOrder() {
        return (Comparator<UK>) SortedKeyOrder.INSTANCE;
    }

    @Override
    public Kind kind() {
        return Kind.SORTED_MAP;
    }
}
