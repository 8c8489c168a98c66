package io.millrace.connector.opcua;

import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;

/** The security policies the OPC UA source connects with. */
public enum OpcUaSecurityPolicy {
    /** No signing, no encryption: for a trusted network or a test. */
    NONE(SecurityPolicy.None),
    /**
     * Messages signed (and by default encrypted) with RSA and SHA-256; needs a client certificate and a way to trust
     * the server's certificate.
     */
    BASIC256SHA256(SecurityPolicy.Basic256Sha256);

    private final SecurityPolicy milo;

    OpcUaSecurityPolicy(SecurityPolicy milo) {
        this.milo = milo;
    }

    SecurityPolicy milo() {
        return milo;
    }
}
