package io.millrace.connector.mqtt;

/** The broker refused a connection or a subscription: retrying will not help, the configuration must change. */
public final class MqttRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MqttRefusedException(String message) {
        super(message);
    }
}
