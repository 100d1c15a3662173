package dev.synccontext.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.annotation.MergedAnnotations;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration;

/**
 * Which endpoint class the auto-configuration picks: the one with the benchmark POST only when
 * {@code synccontext-scenarios} is on the class path, the GET-only one otherwise, and neither refers to
 * the other's optional types. {@code EndpointWithoutScenariosJarTest} proves the same with the jar
 * really absent from the class path.
 */
class SyncContextEndpointConditionsTest {

    private final WebApplicationContextRunner exposed = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextAutoConfiguration.class,
            SyncContextSessionAutoConfiguration.class, SyncContextWebFluxAutoConfiguration.class,
            SyncContextMvcAutoConfiguration.class, SyncContextPropagationAutoConfiguration.class,
                    SyncContextEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=synccontext");

    @Test
    void withTheScenariosJarTheEndpointHasTheBenchmarkPost() {
        exposed.run(context -> {
            assertThat(context).hasSingleBean(SyncContextEndpoint.class);
            assertThat(context.getBean(SyncContextEndpoint.class)).isInstanceOf(SyncContextScenarioEndpoint.class);
            assertThat(context.getBean(SyncContextEndpoint.class).overview().scenarios()).isNotNull();
        });
    }

    @Test
    void withoutTheScenariosJarTheEndpointIsGetOnlyAndStartsCleanly() {
        exposed.withClassLoader(new FilteredClassLoader("dev.synccontext.scenario")).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(SyncContextEndpoint.class);
            SyncContextEndpoint endpoint = context.getBean(SyncContextEndpoint.class);
            assertThat(endpoint).isNotInstanceOf(SyncContextScenarioEndpoint.class);
            SyncContextEndpoint.Overview overview = endpoint.overview();
            assertThat(overview.scenarios()).as("nothing to run without the jar").isNull();
            assertThat(overview.scenarioRunInProgress()).isFalse();
        });
    }

    @Test
    void theEndpointIsReadOnlyByDefaultLikeEveryCostlyBootEndpoint() {
        Endpoint endpoint = MergedAnnotations.from(SyncContextScenarioEndpoint.class,
                MergedAnnotations.SearchStrategy.TYPE_HIERARCHY).get(Endpoint.class).synthesize();
        assertThat(endpoint.id()).isEqualTo("synccontext");
        assertThat(endpoint.defaultAccess()).isEqualTo(Access.READ_ONLY);
    }

    @Test
    void onlyTheScenarioEndpointDeclaresAWriteOperation() {
        assertThat(java.util.Arrays.stream(SyncContextEndpoint.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(WriteOperation.class))).isEmpty();
        assertThat(java.util.Arrays.stream(SyncContextScenarioEndpoint.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(WriteOperation.class))).hasSize(1);
    }

    @Test
    void theGetOnlyEndpointsSignaturesNameNoScenarioType() {
        // Spring reflects over the endpoint's methods and fields and Jackson over the overview's
        // components: a scenario type there would be a NoClassDefFoundError without the jar.
        for (Class<?> type : new Class<?>[] { SyncContextEndpoint.class, SyncContextEndpoint.Overview.class,
                SyncContextEndpoint.ScenarioCatalog.class, SyncContextEndpointAutoConfiguration.class,
                SyncContextEndpointAutoConfiguration.WithoutScenarios.class }) {
            String signatures = java.util.Arrays.toString(type.getDeclaredMethods())
                    + java.util.Arrays.toString(type.getDeclaredFields())
                    + java.util.Arrays.toString(type.getDeclaredConstructors());
            assertThat(signatures).as(type.getName()).doesNotContain("dev.synccontext.scenario")
                    .doesNotContain("ScenarioRuns").doesNotContain("SyncContextScenarioEndpoint");
        }
    }
}
