package io.millrace.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.source.BadRecord;
import io.millrace.format.CsvRowFormat;
import io.millrace.format.FormatException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The connector's serializers and deserializers over the shared formats, and its codecs, without a broker. */
class KafkaFormatsTest {
    static final RowType TYPE = RowType.builder().field("machine", FieldType.STRING).nullableField("celsius", FieldType.DOUBLE).build();

    private static ConsumerRecord<byte[], byte[]> record(byte[] value) {
        return new ConsumerRecord<>("t", 0, 7L, null, value);
    }

    @Test
    void rows_decodeValues_andATombstoneIsABadRecordWithAReason() throws Exception {
        KafkaRecordDeserializer<Row> rows = KafkaRecordDeserializer.rows(CsvRowFormat.of(TYPE));
        assertThat(rows.deserialize(record("m3,71.5".getBytes(StandardCharsets.UTF_8)))).isEqualTo(Row.of(TYPE, "m3", 71.5));
        assertThatThrownBy(() -> rows.deserialize(record(null))).isInstanceOf(FormatException.class)
                .hasMessage("a tombstone (null value) where a row of CSV " + TYPE + " was expected");
        assertThatThrownBy(() -> rows.deserialize(record("m3,hot".getBytes(StandardCharsets.UTF_8))))
                .hasMessage("column 2 'celsius' (DOUBLE) at character 4: 'hot' is not a number");
    }

    @Test
    @SuppressWarnings("deprecation")
    void theConnectorsOwnDecoderType_stillWorksWhereverADecoderIsTaken() throws Exception {
        BytesDecoder<Long> old = BytesDecoder.decimalLongs();
        assertThat(KafkaRecordDeserializer.values(old).deserialize(record("42".getBytes(StandardCharsets.UTF_8)))).isEqualTo(42L);
        assertThatThrownBy(() -> BytesDecoder.utf8().decode(new byte[] {(byte) 0xC3})).hasMessageContaining("not valid UTF-8");
        assertThat(BytesDecoder.bytes().decode(new byte[] {1})).containsExactly(1);
    }

    @Test
    void deadLetters_carryTheRawBytes_andTheReasonAndLocationInHeaders() throws Exception {
        ProducerRecord<byte[], byte[]> r = KafkaRecordSerializer.deadLetters("dlq")
                .serialize(new BadRecord(new byte[] {1, 2}, "topic t, partition 0, offset 7", "bad field"), 5L);
        assertThat(r.topic()).isEqualTo("dlq");
        assertThat(r.key()).isNull();
        assertThat(r.value()).containsExactly(1, 2);
        assertThat(r.timestamp()).isEqualTo(5L);
        assertThat(new String(r.headers().lastHeader(KafkaRecordSerializer.REASON_HEADER).value(), StandardCharsets.UTF_8)).isEqualTo("bad field");
        assertThat(new String(r.headers().lastHeader(KafkaRecordSerializer.LOCATION_HEADER).value(), StandardCharsets.UTF_8))
                .isEqualTo("topic t, partition 0, offset 7");
        assertThatThrownBy(() -> KafkaRecordSerializer.deadLetters(" ")).hasMessageContaining("topic must not be empty");
    }

    @Test
    void committableCodec_roundTripsRandomCommittables_andRefusesOtherVersionsAndDamage() throws Exception {
        KafkaCommittable.Codec codec = new KafkaCommittable.Codec();
        Random random = new Random(9);
        for (int i = 0; i < 500; i++) {
            KafkaCommittable c = new KafkaCommittable("prefix-" + random.nextInt(8) + "-" + random.nextInt(1000), random.nextLong(),
                    (short) random.nextInt(Short.MAX_VALUE), random.nextBoolean());
            assertThat(codec.decode(codec.version(), codec.encode(c))).isEqualTo(c);
        }
        byte[] bytes = codec.encode(new KafkaCommittable("p-0-1", 3L, (short) 1, true));
        assertThatThrownBy(() -> codec.decode(2, bytes)).hasMessage("KafkaCommittable.Codec reads versions 1 to 1, not 2 (written by a newer release?)");
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> codec.decode(1, longer)).hasMessage("KafkaCommittable.Codec: 1 bytes left over after version 1");
    }
}
