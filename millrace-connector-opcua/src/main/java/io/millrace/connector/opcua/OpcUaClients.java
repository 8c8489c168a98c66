package io.millrace.connector.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfigBuilder;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.CertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.UserTokenType;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;
import org.eclipse.milo.opcua.stack.core.util.CertificateUtil;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;
import org.eclipse.milo.opcua.stack.transport.client.tcp.OpcTcpClientTransport;
import org.eclipse.milo.opcua.stack.transport.client.tcp.OpcTcpClientTransportConfig;
import org.slf4j.LoggerFactory;

/** Builds and connects the Milo client for a source's options; every failure names the endpoint, policy and identity. */
final class OpcUaClients {
    /** The application URI of a client without a certificate. */
    static final String DEFAULT_APPLICATION_URI = "urn:millrace:opcua:source";

    private OpcUaClients() {}

    static OpcUaClient connect(OpcUaOptions o, String sourceName) throws Exception {
        String prefix = "OPC UA source '" + sourceName + "': ";
        EndpointDescription endpoint = selectEndpoint(o, prefix);
        OpcUaCertificates.TrustDirectoryValidator trust = o.trustDirectory() == null ? null
                : new OpcUaCertificates.TrustDirectoryValidator(Path.of(o.trustDirectory()));
        CertificateValidator validator = trust != null ? trust : new CertificateValidator.InsecureCertificateValidator();
        if (o.acceptAnyServerCertificate()) {
            LoggerFactory.getLogger(OpcUaClients.class).warn("{}accepting any server certificate at {} without checking it "
                    + "(option 'acceptAnyServerCertificateInsecurely')", prefix, o.endpoint());
        }

        OpcUaClientConfigBuilder config = org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig.builder()
                .setApplicationName(LocalizedText.english("Millrace OPC UA source"))
                .setApplicationUri(DEFAULT_APPLICATION_URI)
                .setProductUri("urn:millrace")
                .setEndpoint(endpoint)
                .setCertificateValidator(validator)
                .setRequestTimeout(uint(o.requestTimeoutMillis()))
                .setKeepAliveInterval(uint(o.keepAliveIntervalMillis()))
                .setIdentityProvider(identity(o, validator));
        OpcUaCertificates.Identity client = null;
        if (o.clientCertificate() != null) {
            client = OpcUaCertificates.load(o.clientCertificate());
            config.setKeyPair(client.keyPair()).setCertificate(client.certificate()).setCertificateChain(client.chain())
                    .setApplicationUri(CertificateUtil.getSanUri(client.certificate()).orElse(DEFAULT_APPLICATION_URI));
        }
        OpcTcpClientTransportConfig transport = OpcTcpClientTransportConfig.newBuilder()
                .setConnectTimeout(uint(o.requestTimeoutMillis())).build();
        OpcUaClient c = new OpcUaClient(config.build(), new OpcTcpClientTransport(transport));
        try {
            c.connectAsync().get(o.requestTimeoutMillis() * 2, TimeUnit.MILLISECONDS);
            return c;
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            try {
                c.disconnectAsync().get(o.requestTimeoutMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception ignored) {
                // the connection failed: nothing to close cleanly
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(prefix + "cannot connect to " + o.describe() + ": " + reason(e, o, trust, client), e);
        }
    }

    private static IdentityProvider identity(OpcUaOptions o, CertificateValidator validator) {
        if (o.username() == null) {
            return AnonymousProvider.INSTANCE;
        }
        return new UsernameProvider(o.username(), o.password(), validator);
    }

    /** The server's endpoint with the policy, mode and identity token the options ask for, at the host and port given. */
    private static EndpointDescription selectEndpoint(OpcUaOptions o, String prefix) throws Exception {
        List<EndpointDescription> endpoints;
        try {
            endpoints = DiscoveryClient.getEndpoints(o.endpoint()).get(o.requestTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException(prefix + "cannot reach " + o.endpoint() + " to list its endpoints (is the server running?): "
                    + describe(cause), e);
        }
        SecurityPolicy policy = o.securityPolicy().milo();
        MessageSecurityMode mode = o.securityPolicy() == OpcUaSecurityPolicy.NONE ? MessageSecurityMode.None : o.securityMode().milo();
        UserTokenType token = o.username() == null ? UserTokenType.Anonymous : UserTokenType.UserName;
        Optional<EndpointDescription> match = endpoints.stream()
                .filter(e -> policy.getUri().equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode)
                .filter(e -> e.getUserIdentityTokens() != null && List.of(e.getUserIdentityTokens()).stream().anyMatch(t -> t.getTokenType() == token))
                .findFirst();
        if (match.isEmpty()) {
            List<String> offered = new ArrayList<>();
            for (EndpointDescription e : endpoints) {
                List<String> tokens = new ArrayList<>();
                for (UserTokenPolicy t : e.getUserIdentityTokens() == null ? new UserTokenPolicy[0] : e.getUserIdentityTokens()) {
                    tokens.add(t.getTokenType().toString());
                }
                offered.add(SecurityPolicy.fromUriSafe(e.getSecurityPolicyUri()).map(Enum::name).orElse(e.getSecurityPolicyUri()) + "/"
                        + e.getSecurityMode() + " " + tokens);
            }
            throw new IllegalStateException(prefix + "the server at " + o.endpoint() + " has no endpoint with security policy "
                    + o.securityPolicy() + ", mode " + mode + " and " + token + " identity; it offers " + String.join(", ", offered));
        }
        String host = EndpointUtil.getHost(o.endpoint());
        int port = EndpointUtil.getPort(o.endpoint());
        return EndpointUtil.updateUrl(match.get(), host, port);
    }

    private static String reason(Exception e, OpcUaOptions o, OpcUaCertificates.TrustDirectoryValidator trust, OpcUaCertificates.Identity client) {
        if (e instanceof TimeoutException) {
            return "no answer within " + 2 * o.requestTimeoutMillis() + " ms";
        }
        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
        if (trust != null && trust.lastRejection() != null) {
            return trust.lastRejection();
        }
        long status = UaException.extract(cause).map(u -> u.getStatusCode().value()).orElse(StatusCodes.Bad_UnexpectedError);
        String name = OpcUaValues.statusName(status);
        if (status == StatusCodes.Bad_UserAccessDenied || status == StatusCodes.Bad_IdentityTokenRejected
                || status == StatusCodes.Bad_IdentityTokenInvalid) {
            return name + ": the server refused " + o.identity() + " (check option 'username': the user name and password)";
        }
        if (status == StatusCodes.Bad_SecurityChecksFailed || status == StatusCodes.Bad_CertificateUntrusted) {
            return name + (client == null ? ""
                    : ": the server does not trust the client certificate " + client.certificate().getSubjectX500Principal().getName()
                            + " (SHA-1 " + OpcUaCertificates.thumbprint(client.certificate()) + "): add it to the server's trusted certificates");
        }
        return describe(cause);
    }

    private static String describe(Throwable t) {
        return UaException.extract(t).map(u -> OpcUaValues.statusName(u.getStatusCode().value()) + (u.getMessage() == null ? "" : " (" + u.getMessage() + ")"))
                .orElse(String.valueOf(t));
    }
}
