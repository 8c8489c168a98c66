package io.millrace.testing;

import io.millrace.api.OutputTag;
import io.millrace.operator.Output;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An {@link Output} that keeps everything: main records, side-output records per tag, and watermarks. */
public final class RecordedOutput<T> implements Output<T> {
    private final List<Emitted<T>> records = new ArrayList<>();
    private final Map<OutputTag<?>, List<Emitted<?>>> sideOutputs = new HashMap<>();
    private final List<Long> watermarks = new ArrayList<>();

    @Override
    public void emit(T value, long timestamp) {
        records.add(new Emitted<>(value, timestamp));
    }

    @Override
    public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
        sideOutputs.computeIfAbsent(tag, t -> new ArrayList<>()).add(new Emitted<>(value, timestamp));
    }

    @Override
    public void emitWatermark(long watermark) {
        watermarks.add(watermark);
    }

    public List<Emitted<T>> records() {
        return records;
    }

    @SuppressWarnings("unchecked")
    public <X> List<Emitted<X>> sideOutput(OutputTag<X> tag) {
        List<Emitted<?>> list = sideOutputs.getOrDefault(tag, List.of());
        return (List<Emitted<X>>) (List<?>) list;
    }

    public List<Long> watermarks() {
        return watermarks;
    }

    /** Number of records emitted so far, main and side outputs together. */
    int recordCount() {
        return records.size() + sideOutputs.values().stream().mapToInt(List::size).sum();
    }

    /** Forgets the watermarks recorded after the first {@code count}. */
    void keepWatermarks(int count) {
        watermarks.subList(count, watermarks.size()).clear();
    }

    /** Forgets everything recorded so far. */
    public void clear() {
        records.clear();
        sideOutputs.clear();
        watermarks.clear();
    }
}
