package io.millrace.connector.mqtt;

import io.millrace.api.row.Row;
import io.millrace.format.BytesDecoder;
import io.millrace.format.RowFormat;
import java.util.Objects;

/**
 * Turns a received message into the source's element. Called on the source subtask's thread, once per message. A
 * deserializer throws when the message is not what it expects; the source then applies its bad-record policy (fail
 * naming topic, client id and the reason; skip and count; or a dead letter with the raw payload). A message that
 * went to the bad-record policy is acknowledged like the others: it was handled.
 */
@FunctionalInterface
public interface MqttMessageDeserializer<T> extends java.io.Serializable {
    T deserialize(MqttMessage message) throws Exception;

    /** Only the payload, decoded ({@link BytesDecoder#utf8()}, {@link BytesDecoder#bytes()}...). */
    static <V> MqttMessageDeserializer<V> values(BytesDecoder<V> decoder) {
        Objects.requireNonNull(decoder, "decoder");
        return m -> decoder.decode(m.payloadUnsafe());
    }

    /** The payload as a {@link Row} of {@code format} (JSON, CSV, raw, Avro...); a payload it refuses is a bad record. */
    static MqttMessageDeserializer<Row> rows(RowFormat format) {
        Objects.requireNonNull(format, "format");
        return m -> format.decode(m.payloadUnsafe());
    }

    /** The whole message: topic, payload, QoS, retained flag, user properties, client id and arrival time. */
    static MqttMessageDeserializer<MqttMessage> messages() {
        return m -> m;
    }
}
