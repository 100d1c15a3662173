package dev.synccontext.spring.mvc;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * A test controller's own exception handler, on Spring MVC and WebFlux alike: an {@link IllegalStateException}
 * answers 409 with {@code handled: } and its message, so that a test sees the controller's handler ran.
 */
public interface IllegalStateAsConflict {

    @ExceptionHandler(IllegalStateException.class)
    default ResponseEntity<String> conflict(IllegalStateException e) {
        return ResponseEntity.status(HttpStatus.CONFLICT).body("handled: " + e.getMessage());
    }
}
