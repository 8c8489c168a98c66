package io.millrace.runtime.task;

import io.millrace.api.source.EnumeratorCheckpoint;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.source.VersionedCodec;
import io.millrace.runtime.checkpoint.VersionedBytes;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * How one source's splits and enumerator state become operator-state items and back: with the source's
 * {@link VersionedCodec} as {@link VersionedBytes}, or, for a source without one, as the split objects themselves
 * (Java serialization). Restoring also reads splits stored as objects, as earlier checkpoints hold them.
 */
final class SplitCodecs {
    private final String sourceName;
    private final VersionedCodec<SourceSplit> codec;

    SplitCodecs(String sourceName, VersionedCodec<SourceSplit> codec) {
        this.sourceName = sourceName;
        this.codec = codec;
    }

    List<Serializable> encode(List<SourceSplit> splits) throws IOException {
        List<Serializable> items = new ArrayList<>(splits.size());
        for (SourceSplit s : splits) {
            items.add(codec == null ? s : new VersionedBytes(VersionedBytes.SPLIT, codec.version(), codec.encode(s)));
        }
        return items;
    }

    /** What a checkpoint stored of one source: its splits (in stored order) and its enumerator's state, if any. */
    record Restored(List<SourceSplit> splits, EnumeratorCheckpoint enumerator) {}

    Restored decode(List<Serializable> items) throws IOException {
        List<SourceSplit> splits = new ArrayList<>();
        EnumeratorCheckpoint enumerator = null;
        for (Serializable item : items) {
            if (item instanceof VersionedBytes v && v.kind() == VersionedBytes.ENUMERATOR) {
                enumerator = new EnumeratorCheckpoint(v.version(), v.bytes());
            } else if (item instanceof VersionedBytes v && v.kind() == VersionedBytes.SPLIT) {
                if (codec == null) {
                    throw new IOException("source '" + sourceName + "': the checkpoint holds encoded splits (version " + v.version()
                            + ") but the source has no split codec");
                }
                splits.add(codec.decode(v.version(), v.bytes()));
            } else if (item instanceof SourceSplit s) {
                splits.add(s);
            } else {
                throw new IOException("source '" + sourceName + "': the checkpoint holds " + item.getClass().getName()
                        + " where a split was expected");
            }
        }
        return new Restored(splits, enumerator);
    }
}
