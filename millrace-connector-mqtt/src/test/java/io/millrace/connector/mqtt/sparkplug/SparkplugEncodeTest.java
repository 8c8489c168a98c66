package io.millrace.connector.mqtt.sparkplug;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link SparkplugB#encode} writes what {@link SparkplugB#decode} reads back, for every datatype it has a value field for. */
class SparkplugEncodeTest {

    @Test
    void encodedMessages_decodeToTheSameMessage_forRandomMetricsOfEveryScalarType() {
        Random random = new Random(20261204L);
        SparkplugMessage.MessageType[] types = SparkplugMessage.MessageType.values();
        for (int round = 0; round < 2_000; round++) {
            SparkplugMessage.MessageType type = types[random.nextInt(types.length)];
            boolean device = type == SparkplugMessage.MessageType.DBIRTH || type == SparkplugMessage.MessageType.DDATA
                    || type == SparkplugMessage.MessageType.DDEATH;
            List<SparkplugMessage.Metric> metrics = new ArrayList<>();
            int n = random.nextInt(6);
            for (int i = 0; i < n; i++) {
                metrics.add(randomMetric(random));
            }
            SparkplugMessage m = new SparkplugMessage("g" + random.nextInt(3), type, "edge-" + random.nextInt(3), device ? "dev" + i(random) : null,
                    random.nextBoolean() ? random.nextLong() & Long.MAX_VALUE : -1, random.nextBoolean() ? random.nextInt(256) : -1, metrics);
            SparkplugMessage back = SparkplugB.decode(m.topic(), SparkplugB.encode(m));
            assertThat(back).as("round %d: %s", round, m).isEqualTo(m);
        }
    }

    @Test
    void aMetricWithoutDatatype_takesTheFieldOfItsValuesJavaType() {
        SparkplugMessage m = new SparkplugMessage("plant", SparkplugMessage.MessageType.NDATA, "gw", null, 5, 1, List.of(
                new SparkplugMessage.Metric(null, 7, -1, 0, false, 71.25),
                new SparkplugMessage.Metric(null, 8, -1, 0, false, 42L),
                new SparkplugMessage.Metric(null, 9, -1, 0, false, "RUNNING"),
                new SparkplugMessage.Metric(null, 10, -1, 0, false, Boolean.TRUE)));
        assertThat(m.topic()).isEqualTo("spBv1.0/plant/NDATA/gw");
        assertThat(SparkplugB.decode(m.topic(), SparkplugB.encode(m)).metrics()).extracting(SparkplugMessage.Metric::value)
                .containsExactly(71.25, 42L, "RUNNING", Boolean.TRUE);
    }

    @Test
    void aValueThatDoesNotFitItsDatatype_isRefusedNamingTheMetric() {
        SparkplugMessage m = new SparkplugMessage("plant", SparkplugMessage.MessageType.NDATA, "gw", null, 5, 1,
                List.of(new SparkplugMessage.Metric("Line/Speed", 3, -1, 10, false, "fast")));
        assertThatThrownBy(() -> SparkplugB.encode(m)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Line/Speed'").hasMessageContaining("String").hasMessageContaining("Double");
    }

    private static int i(Random random) {
        return random.nextInt(5);
    }

    /** A metric of a random scalar datatype, with a value as the decoder returns it (or null). */
    private static SparkplugMessage.Metric randomMetric(Random random) {
        int[] datatypes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        int datatype = datatypes[random.nextInt(datatypes.length)];
        boolean isNull = random.nextInt(8) == 0;
        Object value = isNull ? null : switch (datatype) {
            case 1 -> (long) (byte) random.nextInt();
            case 2 -> (long) (short) random.nextInt();
            case 3 -> (long) random.nextInt();
            case 5 -> (long) random.nextInt(256);
            case 6 -> (long) random.nextInt(65_536);
            case 7 -> random.nextInt() & 0xFFFF_FFFFL;
            case 4, 8 -> random.nextLong();
            case 13 -> random.nextLong() & Long.MAX_VALUE;
            case 9 -> (double) (float) (random.nextGaussian() * 100);   // a Float: exactly representable
            case 10 -> random.nextGaussian() * 1e6;
            case 11 -> random.nextBoolean();
            default -> "v" + random.nextInt(1000) + (random.nextBoolean() ? "é/ü" : "");
        };
        String name = random.nextInt(4) == 0 ? null : "Line" + random.nextInt(3) + "/Metric " + random.nextInt(10);
        long alias = random.nextBoolean() ? random.nextInt(1 << 20) : -1;
        long timestamp = random.nextBoolean() ? random.nextLong() & Long.MAX_VALUE : -1;
        return new SparkplugMessage.Metric(name, alias, timestamp, random.nextInt(10) == 0 ? 0 : datatype, isNull, value);
    }
}
