package io.millrace.connector.mqtt;

/**
 * A message handed from the client library's thread to the reader: the message and how to acknowledge it on the
 * connection it came on. Acknowledging a message of a connection that is gone does nothing (the broker sends it
 * again on the next connection).
 */
record Incoming(MqttMessage message, Runnable acknowledge) {}
