package io.millrace.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroups;
import org.junit.jupiter.api.Test;

/** A hash edge's writer: each record goes with its key and key group; a failing or null key is named with the edge and record. */
class RecordWriterKeysTest {
    private static final int MAX_PARALLELISM = 128;

    private record Reading(String sensor, long value) {}

    @SuppressWarnings("unchecked")
    private static RecordWriter writer(Channel[] channels, KeySelector<Reading, Object> selector) {
        return new RecordWriter("edge 'readings' -> 'average'", channels, Partitioning.HASH, (KeySelector<Object, Object>) (KeySelector<?, ?>) selector,
                MAX_PARALLELISM, 0, () -> false, new ManualClock(0), 0);
    }

    private static Channel[] channels(int n) {
        Channel[] chs = new Channel[n];
        for (int i = 0; i < n; i++) {
            chs[i] = new Channel("readings", 0, "average", i, 8, 4, new TaskSignal());
        }
        return chs;
    }

    @Test
    void recordsCarryTheirKeyAndGroup_toTheSubtaskThatOwnsTheGroup() {
        Channel[] chs = channels(3);
        RecordWriter w = writer(chs, Reading::sensor);
        for (int i = 0; i < 40; i++) {
            w.emit(new Reading("s" + i % 10, i), i);
        }
        w.flush();
        int seen = 0;
        for (int c = 0; c < chs.length; c++) {
            Object e;
            while ((e = chs[c].poll()) != null) {
                if (e instanceof RecordBatch b) {
                    assertThat(b.keyed()).isTrue();
                    for (int i = 0; i < b.size(); i++) {
                        Reading r = (Reading) b.value(i);
                        assertThat(b.key(i)).isEqualTo(r.sensor());
                        int group = KeyGroups.keyGroupFor(r.sensor(), MAX_PARALLELISM);
                        assertThat(b.keyGroup(i)).isEqualTo(group);
                        assertThat(KeyGroups.subtaskFor(group, MAX_PARALLELISM, chs.length)).isEqualTo(c);
                        seen++;
                    }
                    chs[c].recycle(b);
                }
            }
        }
        assertThat(seen).isEqualTo(40);
    }

    @Test
    void aSelectorThatThrows_failsNamingTheEdgeAndTheRecord() {
        RecordWriter w = writer(channels(2), r -> {
            if (r.value() < 0) {
                throw new IllegalStateException("negative reading");
            }
            return r.sensor();
        });
        w.emit(new Reading("s1", 3), 0);
        assertThatThrownBy(() -> w.emit(new Reading("s2", -1), 1))
                .isInstanceOf(KeyExtractionException.class)
                .hasMessageContaining("edge 'readings' -> 'average'")
                .hasMessageContaining("failed on record Reading[sensor=s2, value=-1]")
                .hasRootCauseMessage("negative reading");
    }

    @Test
    void aNullKey_failsNamingTheEdgeAndTheRecord() {
        RecordWriter w = writer(channels(2), Reading::sensor);
        assertThatThrownBy(() -> w.emit(new Reading(null, 5), 0))
                .isInstanceOf(KeyExtractionException.class)
                .hasMessageContaining("edge 'readings' -> 'average'")
                .hasMessageContaining("returned null for record Reading[sensor=null, value=5]");
    }
}
