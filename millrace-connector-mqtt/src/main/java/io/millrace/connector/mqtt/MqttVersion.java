package io.millrace.connector.mqtt;

/** The protocol version a client speaks. MQTT 5 is the default; 3.1.1 has no user properties and no receive maximum. */
public enum MqttVersion {
    MQTT_5,
    MQTT_3_1_1
}
