package io.millrace.runtime.state.heap;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.List;
import java.util.Locale;

/**
 * How often this JVM's young collections come: the mean time between them since the JVM started, for
 * {@link AutoValues}, which encodes a state's values only when they live long enough to be copied by one. The
 * young collectors are the beans named so (G1's "G1 Young Generation", Parallel's "PS Scavenge", Serial's "Copy",
 * generational ZGC's "ZGC Minor Cycles"); a JVM without one counts every collection.
 */
final class CollectionCadence {
    private static final RuntimeMXBean RUNTIME = ManagementFactory.getRuntimeMXBean();
    private static final List<GarbageCollectorMXBean> YOUNG = young(ManagementFactory.getGarbageCollectorMXBeans());

    private CollectionCadence() {}

    /** The JVM's uptime over its young collections so far, ns; the uptime itself before the first one. */
    static long meanIntervalNanos() {
        long count = 0;
        for (GarbageCollectorMXBean bean : YOUNG) {
            count += Math.max(0, bean.getCollectionCount());
        }
        long uptimeNanos = RUNTIME.getUptime() * 1_000_000L;
        return count == 0 ? uptimeNanos : uptimeNanos / count;
    }

    /** The young collectors among {@code beans}, or all of them when none is named so. */
    static List<GarbageCollectorMXBean> young(List<GarbageCollectorMXBean> beans) {
        List<GarbageCollectorMXBean> young = beans.stream().filter(b -> isYoung(b.getName())).toList();
        return young.isEmpty() ? beans : young;
    }

    static boolean isYoung(String collectorName) {
        String n = collectorName.toLowerCase(Locale.ROOT);
        return n.contains("young") || n.contains("scavenge") || n.equals("copy") || n.contains("minor") || n.equals("parnew");
    }
}
