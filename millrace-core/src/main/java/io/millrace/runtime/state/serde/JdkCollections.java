package io.millrace.runtime.state.serde;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The JDK lists, sets and maps with a fast path in {@link StateSerializer}: a tag, a variable-length
 * count, then the elements (or keys and values alternately) as tagged values. In canonical mode all
 * lists, sets and maps take one tag each (they compare equal across classes) and set and map entries
 * are sorted by their bytes. Owned by one serializer.
 */
final class JdkCollections {
    static final int LIST = 25;
    static final int LINKED_LIST = 26;
    static final int ARRAY_DEQUE = 27;
    static final int IMMUTABLE_LIST = 28;
    static final int SET = 29;
    static final int LINKED_SET = 30;
    static final int SORTED_SET = 31;
    static final int IMMUTABLE_SET = 32;
    static final int MAP = 33;
    static final int LINKED_MAP = 34;
    static final int SORTED_MAP = 35;
    static final int IMMUTABLE_MAP = 36;

    /** The tag of a class in values mode, 0 when it has no fast path. */
    private static final ClassValue<Integer> TAGS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            return tagOf(type);
        }
    };

    private final StateSerializer values;
    private final boolean canonical;

    JdkCollections(StateSerializer values, boolean canonical) {
        this.values = values;
        this.canonical = canonical;
    }

    static boolean isCollectionTag(int tag) {
        return tag >= LIST && tag <= IMMUTABLE_MAP;
    }

    static boolean isMapTag(int tag) {
        return tag >= MAP;
    }

    private static int tagOf(Class<?> c) {
        if (c == ArrayList.class) {
            return LIST;
        } else if (c == HashMap.class) {
            return MAP;
        } else if (c == HashSet.class) {
            return SET;
        } else if (c == LinkedHashMap.class) {
            return LINKED_MAP;
        } else if (c == LinkedHashSet.class) {
            return LINKED_SET;
        } else if (c == LinkedList.class) {
            return LINKED_LIST;
        } else if (c == ArrayDeque.class) {
            return ARRAY_DEQUE;
        } else if (c == TreeSet.class) {
            return SORTED_SET;
        } else if (c == TreeMap.class) {
            return SORTED_MAP;
        }
        String name = c.getName();
        boolean immutable = name.startsWith("java.util.ImmutableCollections$");
        boolean wrapper = name.equals("java.util.Arrays$ArrayList") || name.startsWith("java.util.Collections$Unmodifiable")
                || name.startsWith("java.util.Collections$Singleton") || name.startsWith("java.util.Collections$Empty");
        if (!immutable && !wrapper) {
            return 0;
        }
        if (List.class.isAssignableFrom(c)) {
            return immutable ? IMMUTABLE_LIST : LIST;
        } else if (Set.class.isAssignableFrom(c)) {
            return immutable ? IMMUTABLE_SET : SET;
        } else if (Map.class.isAssignableFrom(c)) {
            return immutable ? IMMUTABLE_MAP : MAP;
        }
        return 0;
    }

    /** Writes {@code value} if its class has a fast path; false when it has none. */
    boolean write(Object value, Class<?> c, ByteWriter out) {
        int tag = TAGS.get(c);
        if (tag == 0) {
            return false;
        }
        if (!canonical && ((tag == SORTED_SET && ((TreeSet<?>) value).comparator() != null)
                || (tag == SORTED_MAP && ((TreeMap<?, ?>) value).comparator() != null))) {
            return false;
        }
        if (canonical) {
            tag = tag == ARRAY_DEQUE ? ARRAY_DEQUE : tag < SET ? LIST : tag < MAP ? SET : MAP;
        }
        out.writeByte(tag);
        if (isMapTag(tag)) {
            writeMap((Map<?, ?>) value, out);
        } else {
            writeElements((Collection<?>) value, tag == SET, out);
        }
        return true;
    }

    private void writeElements(Collection<?> items, boolean sort, ByteWriter out) {
        out.writeVarInt(items.size());
        if (!sort || !canonical) {
            for (Object o : items) {
                values.write(o, out);
            }
            return;
        }
        byte[][] encoded = new byte[items.size()][];
        int i = 0;
        ByteWriter one = new ByteWriter(32);
        for (Object o : items) {
            one.reset();
            values.write(o, one);
            encoded[i++] = one.toByteArray();
        }
        writeSorted(encoded, out);
    }

    private void writeMap(Map<?, ?> map, ByteWriter out) {
        out.writeVarInt(map.size());
        if (!canonical) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                values.write(e.getKey(), out);
                values.write(e.getValue(), out);
            }
            return;
        }
        byte[][] entries = new byte[map.size()][];
        int i = 0;
        ByteWriter one = new ByteWriter(32);
        for (Map.Entry<?, ?> e : map.entrySet()) {
            one.reset();
            values.write(e.getKey(), one);
            values.write(e.getValue(), one);
            entries[i++] = one.toByteArray();
        }
        writeSorted(entries, out);
    }

    private static void writeSorted(byte[][] encoded, ByteWriter out) {
        Arrays.sort(encoded, Arrays::compareUnsigned);
        for (byte[] e : encoded) {
            out.write(e);
        }
    }

    /** Reads the collection after its tag. */
    Object read(int tag, ByteReader in) {
        int n = in.readVarInt();
        switch (tag) {
            case MAP: return readMap(in, n, new HashMap<>(capacity(n)));
            case LINKED_MAP: return readMap(in, n, new LinkedHashMap<>(capacity(n)));
            case SORTED_MAP: return readMap(in, n, new TreeMap<>());
            case IMMUTABLE_MAP: {
                @SuppressWarnings("unchecked")
                Map.Entry<Object, Object>[] entries = new Map.Entry[n];
                for (int i = 0; i < n; i++) {
                    Object k = values.read(in);
                    entries[i] = Map.entry(k, values.read(in));
                }
                return Map.ofEntries(entries);
            }
            case IMMUTABLE_LIST: {
                Object[] items = readArray(in, n);
                return Arrays.asList(items).contains(null) ? Collections.unmodifiableList(Arrays.asList(items)) : List.of(items);
            }
            case IMMUTABLE_SET: return Set.of(readArray(in, n));
            case LIST: return readInto(in, n, new ArrayList<>(n));
            case LINKED_LIST: return readInto(in, n, new LinkedList<>());
            case ARRAY_DEQUE: return readInto(in, n, new ArrayDeque<>(Math.max(n, 1)));
            case SET: return readInto(in, n, new HashSet<>(capacity(n)));
            case LINKED_SET: return readInto(in, n, new LinkedHashSet<>(capacity(n)));
            default: return readInto(in, n, new TreeSet<>());
        }
    }

    private Object[] readArray(ByteReader in, int n) {
        Object[] items = new Object[n];
        for (int i = 0; i < n; i++) {
            items[i] = values.read(in);
        }
        return items;
    }

    private Collection<Object> readInto(ByteReader in, int n, Collection<Object> items) {
        for (int i = 0; i < n; i++) {
            items.add(values.read(in));
        }
        return items;
    }

    private Map<Object, Object> readMap(ByteReader in, int n, Map<Object, Object> map) {
        for (int i = 0; i < n; i++) {
            Object k = values.read(in);
            map.put(k, values.read(in));
        }
        return map;
    }

    /** A hash table capacity that holds {@code n} entries without rehashing. */
    private static int capacity(int n) {
        return (int) Math.min(1 << 30, n * 4L / 3 + 1);
    }
}
