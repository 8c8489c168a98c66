package io.millrace.connector.opcua;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.VersionedCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * Subscribes to variables of an OPC UA server and emits one {@link OpcUaDataChange} per value change the server
 * reports, with the value's source timestamp as event time (the server timestamp when the source sent none), and an
 * {@link OpcUaGap} whenever the subscription had to be created anew. The variables are listed ({@link Builder#nodes})
 * or found by browsing folders ({@link Builder#browse}, recursively, variables only).
 *
 * <p><b>Guarantee.</b> A subscription cannot be replayed, so the source is at-most-once across a restart of the job or
 * of the server: changes made while the source is not subscribed are lost, and the first value of every variable after
 * it subscribes again is delivered (the server sends each variable's current value first; a value delivered before that
 * has not changed since comes again, with the same source timestamp). A restart of the server is
 * reported as an {@link OpcUaGap} with its time span and the number of variables concerned. While connected, the
 * server keeps up to {@code queueSize} changes per variable between two publishes; a job slower than that makes the
 * server discard the oldest ones, and the changes it delivers after that have {@link OpcUaDataChange#overflow()} set.
 * Checkpoints store nothing to replay: only the split's id.
 *
 * <p>One subscription, one connection: the source runs with parallelism 1.
 */
public final class OpcUaSource implements Source<OpcUaRecord, OpcUaSubscriptionSplit> {
    private static final long serialVersionUID = 1L;

    private final OpcUaOptions options;

    private OpcUaSource(OpcUaOptions options) {
        this.options = options;
    }

    public static Builder builder() {
        return new Builder();
    }

    OpcUaOptions options() {
        return options;
    }

    @Override
    public Boundedness boundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public List<OpcUaSubscriptionSplit> createSplits(int parallelism) {
        return List.of(new OpcUaSubscriptionSplit(options.endpoint()));
    }

    @Override
    public SourceReader<OpcUaRecord, OpcUaSubscriptionSplit> createReader(SourceReaderContext context) {
        return new OpcUaSourceReader(options, context);
    }

    @Override
    public VersionedCodec<OpcUaSubscriptionSplit> splitCodec() {
        return new OpcUaSubscriptionSplit.Codec();
    }

    @Override
    public int maxParallelism() {
        return 1;
    }

    /**
     * Options of an {@link OpcUaSource}. Required: {@link #endpoint} and either {@link #nodes} or {@link #browse}.
     * Every setter checks its value and names the option when it refuses it.
     */
    public static final class Builder {
        private String endpoint;
        private final List<String> nodeIds = new ArrayList<>();
        private final List<String> browseRoots = new ArrayList<>();
        private Duration samplingInterval = Duration.ofMillis(250);
        private Duration publishingInterval = Duration.ofMillis(500);
        private int queueSize = 100;
        private boolean discardOldest = true;
        private OpcUaSecurityPolicy securityPolicy = OpcUaSecurityPolicy.NONE;
        private OpcUaSecurityMode securityMode = OpcUaSecurityMode.SIGN_AND_ENCRYPT;
        private ClientCertificate clientCertificate;
        private String trustDirectory;
        private boolean acceptAny;
        private String username;
        private String password;
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration keepAliveInterval = Duration.ofSeconds(5);
        private int maxBufferedChanges = 10_000;

        private Builder() {}

        /** The server's endpoint URL, {@code opc.tcp://host:port[/path]}. */
        public Builder endpoint(String url) {
            if (url == null || !url.startsWith("opc.tcp://") || url.length() <= "opc.tcp://".length()) {
                throw new IllegalArgumentException("OPC UA source: option 'endpoint' must be an opc.tcp://host:port[/path] URL, was '" + url + "'");
            }
            this.endpoint = url;
            return this;
        }

        /** Variables to monitor, by node id in OPC UA's text form: {@code ns=2;s=Line1/Temperature}, {@code ns=3;i=1042}. */
        public Builder nodes(String... ids) {
            for (String id : ids) {
                nodeIds.add(parse("nodes", id));
            }
            return this;
        }

        /**
         * Folders (or any objects) whose variables are monitored: the source browses each one when it connects,
         * following hierarchical references down through objects and folders, and monitors every variable it finds
         * (leaving out properties). Instead of, or besides, {@link #nodes}.
         */
        public Builder browse(String... folderIds) {
            for (String id : folderIds) {
                browseRoots.add(parse("browse", id));
            }
            return this;
        }

        /** How often the server samples each variable; default 250 ms. Zero asks for the fastest the server offers. */
        public Builder samplingInterval(Duration interval) {
            this.samplingInterval = nonNegative("samplingInterval", interval);
            return this;
        }

        /** How often the server sends the changes it queued; default 500 ms. */
        public Builder publishingInterval(Duration interval) {
            this.publishingInterval = positive("publishingInterval", interval);
            return this;
        }

        /**
         * How many changes of one variable the server keeps between two publishes; default 100. When more happen, or
         * the job does not keep up, the oldest (with {@link #discardNewest()}: the newest) are dropped and the changes
         * of that variable delivered after the drop have their overflow bit set ({@link OpcUaDataChange#overflow()}).
         */
        public Builder queueSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("OPC UA source: option 'queueSize' must be at least 1, was " + size);
            }
            this.queueSize = size;
            return this;
        }

        /** When a variable's queue on the server is full, drop the newest change instead of the oldest. */
        public Builder discardNewest() {
            this.discardOldest = false;
            return this;
        }

        /** The security policy; default {@link OpcUaSecurityPolicy#NONE}. */
        public Builder securityPolicy(OpcUaSecurityPolicy policy) {
            this.securityPolicy = Objects.requireNonNull(policy, "securityPolicy");
            return this;
        }

        /** Sign, or sign and encrypt (the default), under a security policy other than NONE. */
        public Builder securityMode(OpcUaSecurityMode mode) {
            this.securityMode = Objects.requireNonNull(mode, "securityMode");
            return this;
        }

        /** The client's certificate and private key; required under {@link OpcUaSecurityPolicy#BASIC256SHA256}. */
        public Builder clientCertificate(ClientCertificate certificate) {
            this.clientCertificate = Objects.requireNonNull(certificate, "clientCertificate");
            return this;
        }

        /**
         * A directory of server certificates to trust (PEM or DER files: {@code .pem}, {@code .crt}, {@code .cer},
         * {@code .der}); a self-signed server certificate is trusted when it is in it, a CA-signed one when its CA is.
         * A certificate the source refuses is written to the subdirectory {@code rejected}, and the error names it:
         * moving it into the directory trusts it.
         */
        public Builder trustedServerCertificates(Path directory) {
            this.trustDirectory = Objects.requireNonNull(directory, "trustedServerCertificates").toString();
            return this;
        }

        /**
         * Accepts any server certificate without checking it: anyone on the network can then impersonate the server.
         * For tests and first steps only; the source logs a warning when it connects this way.
         */
        public Builder acceptAnyServerCertificateInsecurely() {
            this.acceptAny = true;
            return this;
        }

        /**
         * Authenticates as a user; without it the source connects anonymously. The password is encrypted with the
         * server's certificate (checked as {@link #trustedServerCertificates} says when given).
         */
        public Builder username(String user, String password) {
            if (user == null || user.isEmpty()) {
                throw new IllegalArgumentException("OPC UA source: option 'username' must not be empty");
            }
            this.username = user;
            this.password = Objects.requireNonNull(password, "password");
            return this;
        }

        /** How long one request to the server may take; default 10 s. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive("requestTimeout", timeout);
            return this;
        }

        /** How often the client checks that the server is alive when nothing else is sent; default 5 s. */
        public Builder keepAliveInterval(Duration interval) {
            this.keepAliveInterval = positive("keepAliveInterval", interval);
            return this;
        }

        /**
         * How many changes the source holds between the client library and the job; default 10,000. When the job
         * does not take them fast enough, the client stops asking the server for more, and the server's queues
         * ({@link #queueSize}) take over.
         */
        public Builder maxBufferedChanges(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("OPC UA source: option 'maxBufferedChanges' must be at least 1, was " + max);
            }
            this.maxBufferedChanges = max;
            return this;
        }

        public OpcUaSource build() {
            if (endpoint == null) {
                throw new IllegalArgumentException("OPC UA source: option 'endpoint' is required");
            }
            if (nodeIds.isEmpty() && browseRoots.isEmpty()) {
                throw new IllegalArgumentException("OPC UA source: give the variables with option 'nodes' or the folders to browse with option 'browse'");
            }
            if (trustDirectory != null && acceptAny) {
                throw new IllegalArgumentException("OPC UA source: give either option 'trustedServerCertificates' or "
                        + "'acceptAnyServerCertificateInsecurely', not both");
            }
            if (securityPolicy != OpcUaSecurityPolicy.NONE) {
                if (clientCertificate == null) {
                    throw new IllegalArgumentException("OPC UA source: security policy " + securityPolicy + " needs option 'clientCertificate'");
                }
                if (trustDirectory == null && !acceptAny) {
                    throw new IllegalArgumentException("OPC UA source: security policy " + securityPolicy
                            + " needs option 'trustedServerCertificates' (or, insecurely, 'acceptAnyServerCertificateInsecurely')");
                }
            }
            return new OpcUaSource(new OpcUaOptions(endpoint, nodeIds, browseRoots, samplingInterval.toNanos() / 1e6,
                    publishingInterval.toNanos() / 1e6, queueSize, discardOldest, securityPolicy, securityMode, clientCertificate,
                    trustDirectory, acceptAny, username, password, requestTimeout.toMillis(), keepAliveInterval.toMillis(),
                    maxBufferedChanges));
        }

        private static String parse(String option, String id) {
            if (id == null || NodeId.parseSafe(id).isEmpty()) {
                throw new IllegalArgumentException("OPC UA source: option '" + option + "' has '" + id
                        + "', which is not a node id (expected e.g. ns=2;s=Line1/Temperature or ns=3;i=1042)");
            }
            return id;
        }

        private static Duration nonNegative(String option, Duration d) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("OPC UA source: option '" + option + "' must be zero or positive, was " + d);
            }
            return d;
        }

        private static Duration positive(String option, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("OPC UA source: option '" + option + "' must be positive, was " + d);
            }
            return d;
        }
    }
}
