package io.millrace.runtime.state.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/** Random nested state values (records, enums, lists, maps, sets, scalars) that compare with equals. */
final class RandomValues {
    enum Level { LOW, HIGH, CRITICAL }

    record Sample(String sensor, long time, double value, int count, boolean ok, float f, short s, byte b, char c) {}

    record Batch(String machine, Level level, List<Object> items, Map<Object, Object> index, Sample first, Integer boxed) {}

    private RandomValues() {}

    /** A random value nested at most {@code depth} levels. */
    static Object next(Random r, int depth) {
        int choice = r.nextInt(depth > 0 ? 14 : 9);
        return switch (choice) {
            case 0 -> null;
            case 1 -> r.nextLong();
            case 2 -> r.nextInt();
            case 3 -> r.nextDouble();
            case 4 -> r.nextBoolean();
            case 5 -> string(r);
            case 6 -> Level.values()[r.nextInt(3)];
            case 7 -> (short) r.nextInt();
            case 8 -> sample(r);
            case 9 -> list(r, depth);
            case 10 -> map(r, depth, r.nextBoolean() ? new HashMap<>() : r.nextBoolean() ? new LinkedHashMap<>() : new TreeMap<>());
            case 11 -> Set.copyOf(list(r, 0).stream().filter(x -> x != null).toList());
            case 12 -> List.copyOf(list(r, 0).stream().filter(x -> x != null).toList());
            default -> new Batch(string(r), r.nextBoolean() ? null : Level.values()[r.nextInt(3)], list(r, depth),
                    map(r, depth, new HashMap<>()), r.nextBoolean() ? sample(r) : null, r.nextBoolean() ? null : r.nextInt());
        };
    }

    private static String string(Random r) {
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
            b.append((char) (r.nextInt(4) == 0 ? 0x100 + r.nextInt(0x2000) : 'a' + r.nextInt(26)));
        }
        return b.toString();
    }

    private static Sample sample(Random r) {
        return new Sample(string(r), r.nextLong(), r.nextGaussian(), r.nextInt(), r.nextBoolean(), r.nextFloat(),
                (short) r.nextInt(), (byte) r.nextInt(), (char) r.nextInt(0x3000));
    }

    private static List<Object> list(Random r, int depth) {
        List<Object> items = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            items.add(next(r, depth - 1));
        }
        return items;
    }

    private static Map<Object, Object> map(Random r, int depth, Map<Object, Object> map) {
        for (int i = r.nextInt(5); i > 0; i--) {
            map.put(map instanceof TreeMap ? string(r) : next(r, 0), next(r, depth - 1));
        }
        return map;
    }
}
