package io.millrace.connector.opcua;

import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;

/** How messages are protected under a security policy other than {@link OpcUaSecurityPolicy#NONE}. */
public enum OpcUaSecurityMode {
    /** Signed: nobody can alter them unnoticed, but anyone on the network can read them. */
    SIGN(MessageSecurityMode.Sign),
    /** Signed and encrypted (the default). */
    SIGN_AND_ENCRYPT(MessageSecurityMode.SignAndEncrypt);

    private final MessageSecurityMode milo;

    OpcUaSecurityMode(MessageSecurityMode milo) {
        this.milo = milo;
    }

    MessageSecurityMode milo() {
        return milo;
    }
}
