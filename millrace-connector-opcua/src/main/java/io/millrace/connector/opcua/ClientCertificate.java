package io.millrace.connector.opcua;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The certificate and private key the source presents to the server under {@link OpcUaSecurityPolicy#BASIC256SHA256}:
 * from a PKCS#12 key store, or from two PEM files. The certificate's subject alternative name URI becomes the client's
 * application URI (OPC UA requires them to match). The server must trust the certificate: copy it into the server's
 * trust list. Files are read when the source connects, on the machine that runs it.
 */
public final class ClientCertificate implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    enum Kind { PKCS12, PEM }

    final Kind kind;
    final String path;
    final String keyPath;
    final String password;
    final String alias;

    private ClientCertificate(Kind kind, String path, String keyPath, String password, String alias) {
        this.kind = kind;
        this.path = path;
        this.keyPath = keyPath;
        this.password = password;
        this.alias = alias;
    }

    /**
     * A PKCS#12 key store ({@code .p12}, {@code .pfx}) holding the private key and its certificate chain.
     *
     * @param alias the key entry to use, or null for the store's first key entry
     */
    public static ClientCertificate pkcs12(Path keyStore, String password, String alias) {
        Objects.requireNonNull(keyStore, "keyStore");
        Objects.requireNonNull(password, "password");
        return new ClientCertificate(Kind.PKCS12, keyStore.toString(), null, password, alias);
    }

    /**
     * A PEM certificate file (the client certificate first, then any issuers) and an unencrypted PEM private key file
     * ({@code BEGIN PRIVATE KEY} or {@code BEGIN RSA PRIVATE KEY}).
     */
    public static ClientCertificate pem(Path certificate, Path privateKey) {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
        return new ClientCertificate(Kind.PEM, certificate.toString(), privateKey.toString(), null, null);
    }

    @Override
    public String toString() {
        return kind == Kind.PKCS12 ? "PKCS#12 key store " + path + (alias == null ? "" : " (alias " + alias + ")")
                : "PEM certificate " + path + " with key " + keyPath;
    }
}
