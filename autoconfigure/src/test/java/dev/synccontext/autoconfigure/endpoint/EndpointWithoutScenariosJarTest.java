package dev.synccontext.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.Browser;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * An application on {@code synccontext-spring-boot-autoconfigure} without {@code synccontext-scenarios} (which that
 * artifact declares optional) starts, answers GET and has no benchmark POST: no
 * {@link NoClassDefFoundError} anywhere. Unlike a {@code FilteredClassLoader}, which hides classes only
 * from the conditions, this starts a real application in a class loader whose class path lacks the jar,
 * so a class that merely refers to a scenario type would fail here when Spring or Jackson reflects over it.
 */
class EndpointWithoutScenariosJarTest {

    @Test
    void anApplicationWithoutTheScenariosJarServesGetAndRefusesPost() throws Exception {
        try (URLClassLoader withoutScenarios = new URLClassLoader(classPathWithoutScenarios(),
                ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> withoutScenarios.loadClass("dev.synccontext.scenario.ScenarioRunner"))
                    .as("the scenarios jar must really be absent for this test to mean anything")
                    .isInstanceOf(ClassNotFoundException.class);
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(withoutScenarios);
            try (AutoCloseable app = start(withoutScenarios)) {
                int port = Integer.parseInt(property(withoutScenarios, app, "local.server.port"));
                Browser browser = new Browser(port);
                HttpResponse<String> get = browser.get("/actuator/synccontext");
                assertThat(get.statusCode()).as(get.body()).isEqualTo(200);
                assertThat(get.body()).contains("\"settings\"").doesNotContain("\"scenarios\"");
                HttpResponse<String> post = browser.postJson("/actuator/synccontext", "{}");
                assertThat(post.statusCode()).as("no write operation without the scenarios: %s", post.body())
                        .isEqualTo(405);
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
    }

    /** Starts {@link App} inside {@code loader} with every endpoint exposed and the POST allowed. */
    private static AutoCloseable start(ClassLoader loader) throws Exception {
        // Tomcat installs a JVM-wide URL stream handler factory once per JVM; a second Tomcat from another
        // class loader (this one, beside the other tests' servers) must not try again.
        loader.loadClass("org.apache.catalina.webresources.TomcatURLStreamHandlerFactory").getMethod("disable")
                .invoke(null);
        Class<?> application = loader.loadClass("org.springframework.boot.SpringApplication");
        Class<?> app = loader.loadClass(App.class.getName());
        Object context = application.getMethod("run", Class.class, String[].class).invoke(null, app,
                new String[] { "--server.port=0", "--spring.main.banner-mode=off",
                        "--management.endpoints.web.exposure.include=*",
                        "--management.endpoint.synccontext.access=unrestricted" });
        return (AutoCloseable) context;
    }

    private static String property(ClassLoader loader, Object context, String name) throws Exception {
        Object environment = loader.loadClass("org.springframework.context.ConfigurableApplicationContext")
                .getMethod("getEnvironment").invoke(context);
        return (String) loader.loadClass("org.springframework.core.env.PropertyResolver")
                .getMethod("getProperty", String.class).invoke(environment, name);
    }

    /** This module's test class path, less the scenarios (their classes directory or jar). */
    private static URL[] classPathWithoutScenarios() throws MalformedURLException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        int removed = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            String normalized = entry.replace('\\', '/');
            if (normalized.contains("bench/scenarios/") || normalized.contains("synccontext-scenarios")) {
                removed++;
                continue;
            }
            urls.add(Path.of(entry).toUri().toURL());
        }
        assertThat(removed).as("the scenarios entry on the class path %s", classPath).isEqualTo(1);
        return urls.toArray(URL[]::new);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class App {
    }
}
