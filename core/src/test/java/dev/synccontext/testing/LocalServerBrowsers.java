package dev.synccontext.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Resolves every {@link Browser} parameter of a test method, lifecycle method or constructor to a new browser
 * on the port of the Spring Boot test's running server: one parameter, one cookie jar, so one HTTP session
 * (two {@code Browser} parameters are two users). The port is Boot's {@code local.server.port} of the test's
 * application context, so the class must start a server on a port ({@code @SpringBootTest} with a random or
 * defined port; {@link OnRandomPort} carries both). Adds nothing to the context's configuration, so the
 * Spring test context cache shares contexts exactly as it would without it.
 */
public final class LocalServerBrowsers implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Browser.class;
    }

    @Override
    public Browser resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return new Browser(port(context));
    }

    /**
     * The port the test's server listens on, for clients other than {@link Browser} (a module's own
     * resolver, a STOMP or raw socket client). Starts the application context if it has not started.
     */
    public static int port(ExtensionContext context) {
        String port = SpringExtension.getApplicationContext(context).getEnvironment().getProperty("local.server.port");
        if (port == null) {
            throw new IllegalStateException(context.getRequiredTestClass().getName()
                    + " has no local.server.port: it needs @SpringBootTest with a random or defined port "
                    + "(e.g. @OnRandomPort)");
        }
        return Integer.parseInt(port);
    }
}
