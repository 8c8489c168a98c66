package io.millrace.connector.kafka;

import java.util.List;

/**
 * A record read from Kafka, decoded: key and value, headers in their order, and where it came from. Immutable (the
 * header list is a copy).
 *
 * @param timestamp the record's timestamp in epoch milliseconds (create or log-append time, as the topic is set)
 */
public record KafkaRecord<K, V>(K key, V value, List<KafkaHeader> headers, String topic, int partition, long offset, long timestamp)
        implements java.io.Serializable {
    public KafkaRecord {
        headers = List.copyOf(headers);
    }

    /** The value of the last header with this key, or null if there is none. */
    public KafkaHeader lastHeader(String key) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).key().equals(key)) {
                return headers.get(i);
            }
        }
        return null;
    }
}
