package dev.synccontext.autoconfigure;

import dev.synccontext.spring.SyncContextConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns the library's startup checks ({@link SyncContextConfigurationException}, wherever it is in the cause
 * chain) into Spring Boot's "APPLICATION FAILED TO START" report: the check's description under
 * "Description", its fix under "Action". Registered in {@code META-INF/spring.factories}.
 */
final class SyncContextConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SyncContextConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SyncContextConfigurationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
