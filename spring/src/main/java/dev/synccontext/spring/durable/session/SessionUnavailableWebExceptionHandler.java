package dev.synccontext.spring.durable.session;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * WebFlux: answers a {@link SessionUnavailableException} (in the failure or its causes) with {@code 503}, its
 * {@code Retry-After} header and its message as plain text. Boot's WebFlux error handler keeps the status of a
 * {@code ResponseStatusException} but not its headers, and a client needs {@code Retry-After} to know the refusal
 * is temporary. Runs just before Boot's handler (order -2; Boot's is -1), after the application's
 * {@code @ExceptionHandler} methods; any other failure, and a response already committed, pass on unchanged.
 */
public final class SessionUnavailableWebExceptionHandler implements WebExceptionHandler, Ordered {

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        SessionUnavailableException unavailable = find(failure);
        ServerHttpResponse response = exchange.getResponse();
        if (unavailable == null || response.isCommitted()) {
            return Mono.error(failure);
        }
        response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
        response.getHeaders().set(HttpHeaders.RETRY_AFTER, unavailable.getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
        response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
        byte[] body = String.valueOf(unavailable.getReason()).getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    private static @Nullable SessionUnavailableException find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SessionUnavailableException found) {
                return found;
            }
        }
        return null;
    }

    @Override
    public int getOrder() {
        return -2;
    }
}
