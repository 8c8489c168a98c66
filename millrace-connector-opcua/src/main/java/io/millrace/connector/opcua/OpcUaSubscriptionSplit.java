package io.millrace.connector.opcua;

import io.millrace.api.source.SourceSplit;

/**
 * The one split of an {@link OpcUaSource}: the subscription to one server's variables. It carries no position, since
 * a subscription cannot be replayed: a checkpoint stores the split's id and nothing else, and a restored job
 * subscribes anew and receives every variable's current value first.
 */
public record OpcUaSubscriptionSplit(String endpoint) implements SourceSplit {
    public OpcUaSubscriptionSplit {
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("endpoint must not be empty");
        }
    }

    @Override
    public String splitId() {
        return "opcua:" + endpoint;
    }

    /** Version 1: the endpoint URL (UTF). */
    static final class Codec extends io.millrace.api.source.DataCodec<OpcUaSubscriptionSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(OpcUaSubscriptionSplit s, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeUTF(s.endpoint());
        }

        @Override
        protected OpcUaSubscriptionSplit read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new OpcUaSubscriptionSplit(in.readUTF());
        }
    }
}
