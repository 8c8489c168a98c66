package io.millrace.api.table;

import io.millrace.api.DataStream;
import io.millrace.api.KeyedStream;
import io.millrace.api.OutputTag;
import io.millrace.api.functions.JoinFunction;
import io.millrace.api.row.Row;
import java.util.Objects;

/**
 * An event-time temporal join: each row of a probe stream is joined with the version of a versioned table that was
 * valid at the row's event time, like Flink SQL's {@code JOIN ... FOR SYSTEM_TIME AS OF probe.rowtime}. The table
 * is given as its changelog, keyed by its primary key, with each change's event time as the record timestamp:
 * <pre>{@code
 * DataStream<Enriched> enriched = TemporalJoin.of(readings.keyBy(Reading::machine),
 *                 configChanges.keyBy(r -> r.getString("machine")))
 *         .leftOuter((reading, config) -> new Enriched(reading, config));
 * }</pre>
 *
 * <p><b>Versions.</b> A {@code +I} or {@code +U} at {@code t} is the key's version from {@code t} on, until the
 * next change of the key; a {@code -D} at {@code t} ends the validity of the version before it: from {@code t} on
 * the key has no version, until its next {@code +I} or {@code +U}. A {@code -U} is the retraction that comes before
 * a {@code +U} and changes nothing (it often carries the old row, with the old row's time). Of several changes of a
 * key at the same timestamp the last to arrive counts. A {@code +I} of a key that already has a version replaces it
 * (the changelog is read as upserts of versions), so an upsert stream works as well as a full changelog.
 *
 * <p><b>When rows are joined.</b> A probe row at {@code t} waits in keyed state until the join's watermark (the
 * lower of both inputs' watermarks) reaches {@code t}; then every change at or before {@code t} has arrived, in
 * whatever order, and the row is joined with the latest version at or before {@code t}. The result carries the
 * row's timestamp. Once the watermark passes a key's versions, all but the latest of them are removed: no row can
 * reach them any more. So the state holds the probe rows above the watermark and, per key, the versions above the
 * watermark plus the one valid at it.
 *
 * <p><b>Late and bad input never fails the job and is never dropped silently.</b> A probe row at or below the
 * join's watermark when it arrives is late: it goes to the {@link #sideOutputLateProbes} tag, by default
 * {@link #LATE_PROBES}. A change at or below the join's watermark is late too (rows up to the watermark have been
 * joined already): it goes to {@link #REJECTED} with its reason and changes nothing. So does a {@code -D} of a
 * key that had no version at its time (a key never inserted, or deleted already), once the
 * watermark passes it; it changes nothing either.
 *
 * @param <K> the join key: the probe rows' key and the table's primary key
 * @param <T> the probe rows
 */
public final class TemporalJoin<K, T> {
    /** Table changes the join could not apply, with the reason. */
    public static final OutputTag<RejectedChange> REJECTED = new OutputTag<>("temporal-join-rejected");
    /** Probe rows that arrived at or below the join's watermark, when no other tag is set. */
    public static final OutputTag<Object> LATE_PROBES = new OutputTag<>("temporal-join-late-probes");

    private final KeyedStream<K, T> probes;
    private final KeyedStream<K, Row> versions;
    private final OutputTag<T> lateProbes;

    private TemporalJoin(KeyedStream<K, T> probes, KeyedStream<K, Row> versions, OutputTag<T> lateProbes) {
        this.probes = probes;
        this.versions = versions;
        this.lateProbes = lateProbes;
    }

    /**
     * Joins {@code probes} with the versioned table whose changelog is {@code versions}; both keyed by the same key
     * (the table's primary key). Both need event timestamps and watermarks.
     */
    public static <K, T> TemporalJoin<K, T> of(KeyedStream<K, T> probes, KeyedStream<K, Row> versions) {
        Objects.requireNonNull(probes, "probes");
        Objects.requireNonNull(versions, "versions");
        return new TemporalJoin<>(probes, versions, null);
    }

    /** Late probe rows go to {@code tag} instead of {@link #LATE_PROBES}. */
    public TemporalJoin<K, T> sideOutputLateProbes(OutputTag<T> tag) {
        return new TemporalJoin<>(probes, versions, Objects.requireNonNull(tag, "tag"));
    }

    /**
     * Emits {@code function(row, version)} for each probe row that has a version valid at its time; rows without
     * one produce nothing. The version is passed as an {@code +I} row.
     */
    public <R> DataStream<R> inner(JoinFunction<T, Row, R> function) {
        return join(function, false, "temporalJoin");
    }

    /**
     * Emits {@code function(row, version)} for every probe row, with {@code version} null when none is valid at its
     * time.
     */
    public <R> DataStream<R> leftOuter(JoinFunction<T, Row, R> function) {
        return join(function, true, "temporalLeftJoin");
    }

    @SuppressWarnings("unchecked")
    private <R> DataStream<R> join(JoinFunction<T, Row, R> function, boolean outer, String name) {
        Objects.requireNonNull(function, "function");
        OutputTag<Object> late = lateProbes == null ? LATE_PROBES : (OutputTag<Object>) (OutputTag<?>) lateProbes;
        return probes.connect(versions).process(new TemporalJoinProcess<>(function, outer, late)).name(name);
    }
}
