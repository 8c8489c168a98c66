package io.millrace.runtime.broadcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.runtime.checkpoint.OperatorStateFormat;
import io.millrace.runtime.checkpoint.VersionedBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The stored form of broadcast state: what goes in comes out, through the operator-state file, with no Java serialization. */
class BroadcastStateCodecTest {
    enum Kind { LATHE, MILL }

    record Limit(Kind kind, double value, List<String> sensors) {}

    /** Neither a record nor Serializable, with no no-argument constructor: the state serializer cannot store it. */
    static final class Opaque {
        Opaque(int ignored) {}
    }

    @Test
    void seededEntries_ofRecordsEnumsAndCollections_comeBackEqual_throughTheOperatorStateFile() throws IOException {
        Random random = new Random(0xC0DEC);
        for (int round = 0; round < 20; round++) {
            Map<Object, Object> entries = new HashMap<>();
            int n = random.nextInt(50);
            for (int i = 0; i < n; i++) {
                Object key = random.nextBoolean() ? "type-" + random.nextInt(100) : (Object) (long) random.nextInt(100);
                TreeMap<Long, Limit> byTime = new TreeMap<>();
                for (int v = random.nextInt(4); v >= 0; v--) {
                    byTime.put((long) random.nextInt(1_000), new Limit(Kind.values()[random.nextInt(2)], random.nextDouble(),
                            List.of("s" + random.nextInt(3))));
                }
                entries.put(key, random.nextInt(10) == 0 ? null : byTime);
            }
            VersionedBytes item = BroadcastStateCodec.encode("limits", entries, "op");
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            OperatorStateFormat.write(List.of(item), file);
            assertThat(new String(file.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1))
                    .as("no Java serialization (its stream header) in the file").doesNotContain("\u00ac\u00ed\u0000\u0005");
            List<Serializable> read = OperatorStateFormat.read(new ByteArrayInputStream(file.toByteArray()), "test");

            BroadcastStateCodec.Decoded decoded = BroadcastStateCodec.decode((VersionedBytes) read.get(0), "op");
            assertThat(decoded.name()).isEqualTo("limits");
            assertThat(decoded.entries()).as("round " + round).isEqualTo(entries);
        }
    }

    @Test
    void aValueItCannotStore_andBytesOfANewerVersion_failNamingTheStateAndTheOperator() throws IOException {
        Map<Object, Object> entries = new HashMap<>();
        entries.put("x", new Opaque(1));
        assertThatThrownBy(() -> BroadcastStateCodec.encode("limits", entries, "alarms")).isInstanceOf(IOException.class)
                .hasMessageContaining("broadcast state 'limits' of operator 'alarms': cannot store the entry of key x");

        VersionedBytes good = BroadcastStateCodec.encode("limits", Map.of("a", 1), "alarms");
        VersionedBytes newer = new VersionedBytes(good.kind(), BroadcastStateCodec.VERSION + 1, good.bytes());
        assertThatThrownBy(() -> BroadcastStateCodec.decode(newer, "alarms")).isInstanceOf(IOException.class)
                .hasMessageContaining("operator 'alarms': broadcast state stored in version 2; this release reads versions 1 to 1");
        byte[] cut = java.util.Arrays.copyOf(good.bytes(), good.bytes().length - 1);
        assertThatThrownBy(() -> BroadcastStateCodec.decode(new VersionedBytes(good.kind(), 1, cut), "alarms"))
                .isInstanceOf(IOException.class).hasMessageContaining("broadcast state 'limits' of operator 'alarms': cannot read entry 0 of 1");
    }
}
