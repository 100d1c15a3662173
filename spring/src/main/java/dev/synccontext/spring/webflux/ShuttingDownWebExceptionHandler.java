package dev.synccontext.spring.webflux;

import dev.synccontext.spring.shutdown.ShuttingDownRefusals;
import java.nio.charset.StandardCharsets;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Answers a request refused because the application is shutting down ({@link ShuttingDownRefusals}) with
 * {@code 503 Service Unavailable}, {@code Connection: close} and the refusal's message as plain text,
 * instead of the {@code 500} Boot's error handler gives an unknown exception. It runs just before that
 * handler (order {@value #ORDER}; Boot's is {@code -1}), after the application's {@code @ExceptionHandler}
 * methods; any other failure, and a response already committed, pass on unchanged.
 */
public final class ShuttingDownWebExceptionHandler implements WebExceptionHandler, Ordered {

    static final int ORDER = -2;

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        RuntimeException refusal = ShuttingDownRefusals.find(failure);
        ServerHttpResponse response = exchange.getResponse();
        if (refusal == null || response.isCommitted()) {
            return Mono.error(failure);
        }
        response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
        response.getHeaders().set(HttpHeaders.CONNECTION, "close");
        response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
        byte[] body = String.valueOf(refusal.getMessage()).getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
