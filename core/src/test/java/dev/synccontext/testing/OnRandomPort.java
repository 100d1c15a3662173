package dev.synccontext.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.core.annotation.AliasFor;

/**
 * A Spring Boot test of a real server on a random port, driven over real HTTP: {@code @SpringBootTest} with
 * {@link WebEnvironment#RANDOM_PORT}, whose test methods (and lifecycle methods and constructor) may take
 * {@link Browser} parameters, each a new session on that port ({@link LocalServerBrowsers}). {@link #classes}
 * and {@link #properties} are {@code @SpringBootTest}'s own, so a class annotated with this gets the same
 * context configuration, and shares a cached context with the same classes, as one written with
 * {@code @SpringBootTest(classes = ..., webEnvironment = RANDOM_PORT, properties = ...)}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(LocalServerBrowsers.class)
public @interface OnRandomPort {

    /** The application's component classes, as {@link SpringBootTest#classes}. */
    @AliasFor(annotation = SpringBootTest.class)
    Class<?>[] classes() default {};

    /** Environment properties of the test's application, as {@link SpringBootTest#properties}. */
    @AliasFor(annotation = SpringBootTest.class)
    String[] properties() default {};
}
