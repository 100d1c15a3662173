/**
 * The durable state store on Redis: {@link dev.synccontext.spring.durable.redis.RedisStateStore}, through Spring
 * Data Redis, one Lua script per step that decides ownership or writes state, and Redis pub/sub for hand-off
 * messages. Spring Data Redis is an optional dependency: an application has it when it uses Redis already (Spring
 * Session Data Redis brings it).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.durable.redis;

import org.jspecify.annotations.NullMarked;
