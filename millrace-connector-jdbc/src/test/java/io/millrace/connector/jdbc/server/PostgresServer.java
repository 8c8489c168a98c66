package io.millrace.connector.jdbc.server;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link PostgresTestServer} per test class: register it as a static field with {@code @RegisterExtension}; it
 * starts before the class's first test and is stopped and deleted after its last.
 */
public final class PostgresServer implements BeforeAllCallback, AfterAllCallback {
    private PostgresTestServer server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = PostgresTestServer.started();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The running server of the current test class. */
    public PostgresTestServer server() {
        if (server == null) {
            throw new IllegalStateException("the PostgreSQL test server is not started: register PostgresServer with @RegisterExtension on a static field");
        }
        return server;
    }
}
