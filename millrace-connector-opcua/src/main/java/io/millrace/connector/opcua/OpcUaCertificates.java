package io.millrace.connector.opcua;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.CertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;

/** Reads the client's certificate and key, and checks the server's certificate against a trust directory. */
final class OpcUaCertificates {
    private OpcUaCertificates() {}

    /** The client's key pair and certificate chain (the client's certificate first). */
    record Identity(KeyPair keyPair, X509Certificate[] chain) {
        X509Certificate certificate() {
            return chain[0];
        }
    }

    static Identity load(ClientCertificate c) throws IOException {
        try {
            return c.kind == ClientCertificate.Kind.PKCS12 ? loadPkcs12(c) : loadPem(c);
        } catch (IOException e) {
            throw new IOException("OPC UA source: option 'clientCertificate': cannot read the " + c + ": " + e.getMessage(), e);
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            throw new IOException("OPC UA source: option 'clientCertificate': the " + c + " holds no usable key and certificate: " + e, e);
        }
    }

    private static Identity loadPkcs12(ClientCertificate c) throws IOException, java.security.GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(c.path))) {
            store.load(in, c.password.toCharArray());
        }
        String alias = c.alias;
        if (alias == null) {
            for (Enumeration<String> e = store.aliases(); e.hasMoreElements(); ) {
                String a = e.nextElement();
                if (store.isKeyEntry(a)) {
                    alias = a;
                    break;
                }
            }
            if (alias == null) {
                throw new IOException("it has no private key entry");
            }
        } else if (!store.isKeyEntry(alias)) {
            throw new IOException("it has no private key entry '" + alias + "'");
        }
        PrivateKey key = (PrivateKey) store.getKey(alias, c.password.toCharArray());
        Certificate[] chain = store.getCertificateChain(alias);
        X509Certificate[] x509 = new X509Certificate[chain.length];
        for (int i = 0; i < chain.length; i++) {
            x509[i] = (X509Certificate) chain[i];
        }
        return new Identity(new KeyPair(x509[0].getPublicKey(), key), x509);
    }

    private static Identity loadPem(ClientCertificate c) throws IOException, java.security.GeneralSecurityException {
        List<X509Certificate> chain = readCertificates(Path.of(c.path));
        if (chain.isEmpty()) {
            throw new IOException(c.path + " holds no certificate");
        }
        PrivateKey key;
        try (Reader r = Files.newBufferedReader(Path.of(c.keyPath)); PEMParser parser = new PEMParser(r)) {
            Object o = parser.readObject();
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            if (o instanceof PEMKeyPair pair) {
                key = converter.getKeyPair(pair).getPrivate();
            } else if (o instanceof PrivateKeyInfo info) {
                key = converter.getPrivateKey(info);
            } else {
                throw new IOException(c.keyPath + " holds no unencrypted PEM private key (found " + (o == null ? "nothing" : o.getClass().getSimpleName()) + ")");
            }
        }
        return new Identity(new KeyPair(chain.get(0).getPublicKey(), key), chain.toArray(new X509Certificate[0]));
    }

    static List<X509Certificate> readCertificates(Path file) throws IOException, CertificateException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<X509Certificate> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate cert : factory.generateCertificates(in)) {
                out.add((X509Certificate) cert);
            }
        }
        return out;
    }

    /** The SHA-1 thumbprint of a certificate in hex, as OPC UA tools show it. */
    static String thumbprint(X509Certificate c) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(c.getEncoded()));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Checks server certificates against the certificates in a directory (re-read at every check, so a certificate
     * moved into it is trusted at the next connection attempt). A refused certificate is written to
     * {@code rejected/<thumbprint>.der} below the directory and remembered for the error message.
     */
    static final class TrustDirectoryValidator implements CertificateValidator {
        private final Path directory;
        private volatile String lastRejection;

        TrustDirectoryValidator(Path directory) {
            this.directory = directory;
        }

        @Override
        public void validateCertificateChain(List<X509Certificate> chain, String applicationUri, String[] validHostnames) throws UaException {
            MemoryTrustListManager trust = new MemoryTrustListManager();
            try {
                trust.setTrustedCertificates(certificatesIn(directory));
            } catch (IOException | CertificateException e) {
                lastRejection = "the trust directory " + directory + " cannot be read: " + e.getMessage();
                throw new UaException(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_CertificateUntrusted, lastRejection);
            }
            try {
                new DefaultClientCertificateValidator(trust, new MemoryCertificateQuarantine()).validateCertificateChain(chain, applicationUri, validHostnames);
            } catch (UaException e) {
                X509Certificate server = chain.get(0);
                String where = reject(server);
                lastRejection = "the server certificate " + server.getSubjectX500Principal().getName() + " (SHA-1 " + thumbprint(server)
                        + ") is not trusted (" + OpcUaValues.statusName(e.getStatusCode().value()) + "): " + where;
                throw e;
            }
        }

        private String reject(X509Certificate server) {
            Path rejected = directory.resolve("rejected").resolve(thumbprint(server) + ".der");
            try {
                Files.createDirectories(rejected.getParent());
                Files.write(rejected, server.getEncoded());
                return "it was written to " + rejected + "; move it into " + directory + " to trust it";
            } catch (IOException | java.security.cert.CertificateEncodingException e) {
                return "put it into " + directory + " to trust it (writing it to " + rejected + " failed: " + e.getMessage() + ")";
            }
        }

        /** Why the last certificate was refused, or null. */
        String lastRejection() {
            return lastRejection;
        }

        private static List<X509Certificate> certificatesIn(Path dir) throws IOException, CertificateException {
            List<X509Certificate> all = new ArrayList<>();
            if (!Files.isDirectory(dir)) {
                throw new IOException("it is not a directory");
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                for (Path f : files) {
                    String name = f.getFileName().toString().toLowerCase(Locale.ROOT);
                    if (Files.isRegularFile(f) && (name.endsWith(".der") || name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer"))) {
                        all.addAll(readCertificates(f));
                    }
                }
            }
            return all;
        }
    }
}
