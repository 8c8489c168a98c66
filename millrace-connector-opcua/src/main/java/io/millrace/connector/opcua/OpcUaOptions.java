package io.millrace.connector.opcua;

import java.util.List;

/**
 * The validated options of an {@link OpcUaSource}, as its builder left them. Immutable and serializable: the source
 * is shipped to the subtask that runs it.
 *
 * @param nodeIds the listed node ids (text form), or empty when a folder is browsed
 * @param browseRoots the folders browsed for variables (text form), or empty when nodes are listed
 * @param trustDirectory the directory of trusted server certificates, or null
 * @param acceptAnyServerCertificate true when every server certificate is accepted without checks
 * @param username the user name, or null for anonymous
 */
record OpcUaOptions(
        String endpoint,
        List<String> nodeIds,
        List<String> browseRoots,
        double samplingIntervalMillis,
        double publishingIntervalMillis,
        int queueSize,
        boolean discardOldest,
        OpcUaSecurityPolicy securityPolicy,
        OpcUaSecurityMode securityMode,
        ClientCertificate clientCertificate,
        String trustDirectory,
        boolean acceptAnyServerCertificate,
        String username,
        String password,
        long requestTimeoutMillis,
        long keepAliveIntervalMillis,
        int maxBufferedChanges) implements java.io.Serializable {

    OpcUaOptions {
        nodeIds = List.copyOf(nodeIds);
        browseRoots = List.copyOf(browseRoots);
    }

    /** How the source authenticates, for messages: {@code anonymous} or {@code user 'name'}. */
    String identity() {
        return username == null ? "anonymous" : "user '" + username + "'";
    }

    /** The connection's description in messages: endpoint, policy and identity. */
    String describe() {
        return endpoint + " (security policy " + securityPolicy + (securityPolicy == OpcUaSecurityPolicy.NONE ? "" : "/" + securityMode)
                + ", identity " + identity() + ")";
    }
}
