package dev.synccontext.spring.mvc;


import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.spring.handler.OnContext;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcRegistrations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * An {@code @OnContext} MVC handler never runs off its context silently: the starter supplies its adapter,
 * steps aside for the application's own {@code WebMvcRegistrations}, and then fails the startup unless that
 * one returns an {@link OnContextHandlerAdapter}.
 */
class OnContextMethodsCheckTest {

    private final WebApplicationContextRunner mvc = AllParts.servlet().withConfiguration(AutoConfigurations.of(
            WebMvcAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
            HttpMessageConvertersAutoConfiguration.class));

    /** The application with an {@code @OnContext} handler. */
    private final WebApplicationContextRunner annotated = mvc.withBean(AnnotatedController.class);

    @Test
    void theStartersAdapterRunsAnnotatedHandlers() {
        annotated.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RequestMappingHandlerAdapter.class)).isInstanceOf(OnContextHandlerAdapter.class);
        });
    }

    @Test
    void theApplicationsOwnRegistrationsWinAndMayReturnTheAdapter() {
        annotated.withUserConfiguration(OwnRegistrationsReturningTheAdapter.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(WebMvcRegistrations.class);
            assertThat(context.getBean(RequestMappingHandlerAdapter.class)).isInstanceOf(OwnAdapter.class);
        });
    }

    @Test
    void anotherAdapterFailsTheStartupNamingTheMethodAndTheFix() {
        annotated.withUserConfiguration(OwnRegistrations.class).run(context -> assertThat(context)
                .getFailure().hasMessageContaining("would run off their context")
                .hasMessageContaining("AnnotatedController#hello")
                .hasMessageContaining("Return new OnContextHandlerAdapter()"));
        annotated.withPropertyValues("synccontext.mvc.on-context=false")
                .run(context -> assertThat(context).getFailure().hasMessageContaining("would run off their context"));
    }

    @Test
    void withoutAnnotatedHandlersAnyAdapterIsFine() {
        mvc.withUserConfiguration(OwnRegistrations.class).run(context -> assertThat(context).hasNotFailed());
        mvc.withPropertyValues("synccontext.mvc.on-context=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RequestMappingHandlerAdapter.class)).isNotInstanceOf(OnContextHandlerAdapter.class);
        });
    }

    /** The application's own registrations, whose adapter {@code adapter} makes. */
    static WebMvcRegistrations registrations(Supplier<RequestMappingHandlerAdapter> adapter) {
        return new WebMvcRegistrations() {
            @Override
            public RequestMappingHandlerAdapter getRequestMappingHandlerAdapter() {
                return adapter.get();
            }
        };
    }

    @RestController
    static class AnnotatedController {

        @GetMapping("/hello")
        @OnContext
        String hello() {
            return "hello";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistrations {

        @Bean
        WebMvcRegistrations ownRegistrations() {
            return registrations(RequestMappingHandlerAdapter::new);
        }
    }

    static class OwnAdapter extends OnContextHandlerAdapter {
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistrationsReturningTheAdapter {

        @Bean
        WebMvcRegistrations ownRegistrations() {
            return registrations(OwnAdapter::new);
        }
    }
}
