package dev.synccontext.sample;

import dev.synccontext.testing.LocalServerBrowsers;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves every {@link BoardClient} parameter of a test of the running sample to a new visitor on the
 * sample's port: one parameter, one cookie jar, so one HTTP session. Adds nothing to the context's
 * configuration, so the test classes still share one application.
 */
final class BoardClients implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == BoardClient.class;
    }

    @Override
    public BoardClient resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return new BoardClient(LocalServerBrowsers.port(context));
    }
}
