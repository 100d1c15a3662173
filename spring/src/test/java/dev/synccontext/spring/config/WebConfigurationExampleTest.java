package dev.synccontext.spring.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.plain.WebConfiguration;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.ScopedSyncContext;
import dev.synccontext.spring.mvc.OnContextHandlerAdapter;
import dev.synccontext.spring.session.SessionContexts;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/** The Spring MVC example of spring/README.md ("Without Spring Boot") starts and wires what it says. */
class WebConfigurationExampleTest {

    @Test
    void theReadmesMvcExampleRunsOnContextHandlersOnTheSessionsContext() {
        try (AnnotationConfigWebApplicationContext context = new AnnotationConfigWebApplicationContext()) {
            context.setServletContext(new MockServletContext());
            context.register(WebConfiguration.class);
            context.refresh();
            assertThat(context.getBean(RequestMappingHandlerAdapter.class)).as("the handler adapter")
                    .isInstanceOf(OnContextHandlerAdapter.class);
            assertThat(context.getBean("rendererSyncContext", RendererSyncContext.class))
                    .as("the context @OnContext runs on").isInstanceOf(ScopedSyncContext.class);
            assertThat(context.getBeansOfType(SessionContexts.class)).as("session contexts").hasSize(1);
        }
    }
}
