/**
 * Spring WebFlux: the argument resolver that gives an annotated handler method its {@code WebSession}'s
 * context (the session part's {@link dev.synccontext.spring.session.WebSessionContexts}), and
 * {@link dev.synccontext.spring.handler.OnContext @OnContext} controllers, whose reactive handler
 * methods' bodies run on that context (a proxy made by {@code OnContextHandlers}).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.webflux;

import org.jspecify.annotations.NullMarked;
