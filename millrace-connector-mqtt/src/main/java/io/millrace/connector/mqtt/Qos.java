package io.millrace.connector.mqtt;

/** MQTT's quality of service levels. */
public enum Qos {
    /** QoS 0: sent once, never acknowledged nor sent again; lost if a connection drops. */
    AT_MOST_ONCE(0),
    /** QoS 1: sent until acknowledged (PUBACK); may arrive more than once. */
    AT_LEAST_ONCE(1),
    /** QoS 2: a four-packet handshake that the broker completes once per message and connection. */
    EXACTLY_ONCE(2);

    private final int level;

    Qos(int level) {
        this.level = level;
    }

    /** 0, 1 or 2. */
    public int level() {
        return level;
    }

    /** The QoS of level 0, 1 or 2; another level fails, naming the option. */
    public static Qos of(int level, String option) {
        for (Qos q : values()) {
            if (q.level == level) {
                return q;
            }
        }
        throw new IllegalArgumentException("option '" + option + "' must be 0, 1 or 2 (the MQTT QoS level), was " + level);
    }
}
