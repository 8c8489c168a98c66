package io.millrace.rocksdb;

import io.millrace.rocksdb.KeyGroupRows.TimerPart;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.timer.DueTimers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The timer services of one {@link RocksDbKeyedStateBackend} by name, each with its timer column family and
 * its key-group index column family; fires their due timers in timestamp order across services. Task
 * thread only.
 */
final class RocksTimerServices {
    private final RocksDbKeyedStateBackend backend;
    private final List<RocksTimerService<?>> services = new ArrayList<>();
    private final Map<String, RocksTimerService<?>> byName = new LinkedHashMap<>();

    RocksTimerServices(RocksDbKeyedStateBackend backend) {
        this.backend = backend;
    }

    /** Gets or creates the service of that name; an existing one must be bound to the same target. */
    @SuppressWarnings("unchecked")
    <N> InternalTimerService<N> service(String name, Triggerable<N> target) {
        RocksTimerService<?> existing = byName.get(name);
        if (existing != null) {
            if (existing.target() != target) {
                throw new IllegalArgumentException("timer service '" + name + "' is already bound to another target");
            }
            return (InternalTimerService<N>) existing;
        }
        RocksTimerService<N> service = new RocksTimerService<>(name, backend, timerColumn(name), timerIndex(name), backend.clock, target);
        backend.store().meta().put(RocksDbKeyedStateBackend.utf8("timers:" + name), RocksDbKeyedStateBackend.utf8("timer service"));
        backend.restored().claimTimers(name);
        byName.put(name, service);
        services.add(service);
        return service;
    }

    boolean isEmpty() {
        return services.isEmpty();
    }

    /** Fires due event-time timers of all services in timestamp order, including ones registered meanwhile. */
    void advanceWatermark(long watermark) throws Exception {
        for (RocksTimerService<?> s : services) {
            s.watermark(watermark);
        }
        DueTimers.fireEventTime(services, watermark);
    }

    long nextEventTimerTime() {
        return DueTimers.nextEventTime(services);
    }

    void advanceProcessingTime(long now) throws Exception {
        DueTimers.fireProcessingTime(services, now);
    }

    int eventTimerCount() {
        int n = 0;
        for (RocksTimerService<?> s : services) {
            n += s.eventTimerCount();
        }
        return n;
    }

    int processingTimerCount() {
        int n = 0;
        for (RocksTimerService<?> s : services) {
            n += s.processingTimerCount();
        }
        return n;
    }

    /** Every created timer service, as a snapshot sees it. */
    void addParts(List<TimerPart> parts) {
        for (RocksTimerService<?> t : services) {
            parts.add(new TimerPart(t.name(), timerIndex(t.name())));
        }
    }

    int size() {
        return services.size();
    }

    /** Writes the timers registered only in heap caches to RocksDB. */
    void flush() {
        for (int i = 0; i < services.size(); i++) {
            services.get(i).flush();
        }
    }

    /** The created timer service of that name, null if none. */
    RocksTimerService<?> created(String name) {
        return byName.get(name);
    }

    BytesColumn timerColumn(String service) {
        return backend.store().column("timers:" + service);
    }

    BytesColumn timerIndex(String service) {
        return backend.store().column("timer-groups:" + service);
    }

    void clear() {
        services.clear();
        byName.clear();
    }
}
