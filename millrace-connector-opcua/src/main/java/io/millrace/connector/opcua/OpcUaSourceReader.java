package io.millrace.connector.opcua;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the subscription of an {@link OpcUaSource} on its subtask's thread. The connection is opened at the first
 * {@link #pollNext} after the split arrived (so that a refused connection fails the job with its reason); from then on
 * the client's threads queue the changes and wake the subtask, and {@link #pollNext} emits what is queued, each record
 * with its event time, all through the split's output (one watermark per subscription). A snapshot holds the split
 * alone: there is no position to store, since nothing can be replayed.
 */
final class OpcUaSourceReader implements SourceReader<OpcUaRecord, OpcUaSubscriptionSplit> {
    private static final int BATCH = 1024;

    private final OpcUaOptions options;
    private final SourceReaderContext context;
    private final List<Object> batch = new ArrayList<>(BATCH);
    private OpcUaSubscriptionSplit split;
    private OpcUaConnection connection;
    private ReaderOutput<OpcUaRecord> output;
    private ReaderOutput.SplitOutput<OpcUaRecord> splitOutput;
    private boolean closed;

    OpcUaSourceReader(OpcUaOptions options, SourceReaderContext context) {
        this.options = options;
        this.context = context;
    }

    @Override
    public void addSplits(List<OpcUaSubscriptionSplit> splits) {
        for (OpcUaSubscriptionSplit s : splits) {
            if (split != null) {
                throw new IllegalStateException("OPC UA source '" + context.sourceName() + "' was given a second split: " + s.splitId());
            }
            split = s;
        }
    }

    @Override
    public void noMoreSplits() {}

    @Override
    public void removeSplits(List<String> splitIds) {
        if (split != null && splitIds.contains(split.splitId())) {
            split = null;
            closeConnection();
        }
    }

    @Override
    public InputStatus pollNext(ReaderOutput<OpcUaRecord> out) throws Exception {
        if (split == null || closed) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        if (output != out) {
            output = out;
            splitOutput = out.split(split.splitId());
        }
        if (connection == null) {
            connection = OpcUaConnection.open(options, context);
        }
        batch.clear();
        connection.poll(batch, BATCH);
        for (Object o : batch) {
            if (o instanceof OpcUaRecord r) {
                splitOutput.collect(r, r.eventTime());
            } else {
                out.reportBadRecord((BadRecord) o);
            }
        }
        if (batch.isEmpty()) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        return connection.isEmpty() ? InputStatus.NOTHING_AVAILABLE : InputStatus.MORE_AVAILABLE;
    }

    /** The client's threads wake the subtask when changes arrive. */
    @Override
    public long nanosUntilAvailable() {
        return connection == null ? -1 : Long.MAX_VALUE;
    }

    @Override
    public List<OpcUaSubscriptionSplit> snapshotState() {
        return split == null ? List.of() : List.of(split);
    }

    @Override
    public void close() {
        closed = true;
        closeConnection();
    }

    private void closeConnection() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }
}
