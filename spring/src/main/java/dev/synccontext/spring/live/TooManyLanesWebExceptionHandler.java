package dev.synccontext.spring.live;

import java.nio.charset.StandardCharsets;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Answers a {@link LiveFlux} stream refused for its lanes ({@link TooManyLanesException}) with {@code 400 Bad
 * Request} and the refusal's message as plain text (the cap and the property that sets it), as {@link LiveSse}
 * does on a Servlet container, instead of the {@code 500} Boot's error handler gives an unknown exception. Runs
 * just before that handler (order {@value #ORDER}; Boot's is {@code -1}); any other failure, and a response
 * already committed, pass on unchanged.
 */
public final class TooManyLanesWebExceptionHandler implements WebExceptionHandler, Ordered {

    static final int ORDER = -2;

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        ServerHttpResponse response = exchange.getResponse();
        if (!(failure instanceof TooManyLanesException refusal) || response.isCommitted()) {
            return Mono.error(failure);
        }
        response.setStatusCode(HttpStatus.BAD_REQUEST);
        response.getHeaders().setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
        byte[] body = String.valueOf(refusal.getMessage()).getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
