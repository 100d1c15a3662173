package dev.synccontext.spring.websocket;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OnContextDeclarations;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.handler.DestinationPatternsMessageCondition;
import org.springframework.messaging.handler.HandlerMethod;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageMappingInfo;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.annotation.support.SimpAnnotationMethodMessageHandler;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.PathMatcher;

/**
 * Tells which inbound STOMP messages Spring's annotation handler will hand to an
 * {@link OnContext @OnContext} method, before the inbound channel hands them to its pool.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The answer is Spring's own choice of handler method: the same destination prefixes, the direct lookup
 *       of destinations without patterns first, the mapping conditions (message type, destination patterns)
 *       and the mapping comparator of {@link SimpAnnotationMethodMessageHandler}, read through its public
 *       API. An ambiguous destination is not ours (Spring reports it as usual).</li>
 *   <li>Whether a handler method is {@code @OnContext} (on the method, or on its class) is decided once per
 *       method, when this is built; a message's answer is cached per message type and lookup destination
 *       (up to {@value #CACHED} destinations each), since it depends on nothing else.</li>
 *   <li>Without any {@code @OnContext} method, {@link #target} reads one field per message.</li>
 * </ul>
 *
 * <p>Built from the handler's mappings as they are when the first message arrives (Spring detects handler
 * methods at startup); thread-safe.
 */
final class OnContextMappings {

    /** Maximum number of destinations whose answer is kept per message type; the rest are computed each time. */
    static final int CACHED = 4096;

    /** No handler method is {@code @OnContext}: every message takes Spring's usual path. */
    static final OnContextMappings NONE = new OnContextMappings();

    private final List<SimpMessageMappingInfo> all;
    private final Map<String, List<SimpMessageMappingInfo>> direct;
    private final Map<SimpMessageMappingInfo, HandlerMethod> methods;
    private final List<SimpMessageMappingInfo> onContext;
    private final Collection<String> prefixes;
    private final boolean slashSeparator;
    private final Map<String, Optional<HandlerMethod>> messageTargets = new ConcurrentHashMap<>();
    private final Map<String, Optional<HandlerMethod>> subscribeTargets = new ConcurrentHashMap<>();

    private OnContextMappings() {
        all = List.of();
        direct = Map.of();
        methods = Map.of();
        onContext = List.of();
        prefixes = List.of();
        slashSeparator = true;
    }

    private OnContextMappings(SimpAnnotationMethodMessageHandler handler, List<SimpMessageMappingInfo> onContext) {
        this.methods = Map.copyOf(handler.getHandlerMethods());
        this.all = List.copyOf(handler.getHandlerMethods().keySet()); // Spring's order
        this.onContext = List.copyOf(onContext);
        this.prefixes = List.copyOf(handler.getDestinationPrefixes());
        PathMatcher matcher = handler.getPathMatcher();
        // SimpAnnotationMethodMessageHandler keeps the prefix's trailing slash in the lookup destination when
        // its matcher separates with '/': the same test it applies in setPathMatcher.
        this.slashSeparator = "a/a".equals(matcher.combine("a", "a"));
        Map<String, List<SimpMessageMappingInfo>> lookup = new HashMap<>();
        for (SimpMessageMappingInfo mapping : all) {
            for (String pattern : mapping.getDestinationConditions().getPatterns()) {
                if (!matcher.isPattern(pattern)) {
                    lookup.computeIfAbsent(pattern, p -> new ArrayList<>()).add(mapping);
                }
            }
        }
        this.direct = Map.copyOf(lookup);
    }

    /** The mappings of {@code handler}, or {@link #NONE} when none of its methods is {@code @OnContext}. */
    static OnContextMappings of(SimpAnnotationMethodMessageHandler handler) {
        List<SimpMessageMappingInfo> onContext = new ArrayList<>();
        handler.getHandlerMethods().forEach((mapping, method) -> {
            if (OnContextDeclarations.runsOnContext(method.getMethod(), method.getBeanType())) {
                onContext.add(mapping);
            }
        });
        return onContext.isEmpty() ? NONE : new OnContextMappings(handler, onContext);
    }

    /** The {@code @OnContext} method Spring will invoke for {@code message}, or null if it invokes none. */
    @Nullable HandlerMethod target(Message<?> message) {
        if (onContext.isEmpty()) {
            return null;
        }
        MessageHeaders headers = message.getHeaders();
        SimpMessageType type = SimpMessageHeaderAccessor.getMessageType(headers);
        Map<String, Optional<HandlerMethod>> cache;
        if (type == SimpMessageType.MESSAGE) {
            cache = messageTargets;
        } else if (type == SimpMessageType.SUBSCRIBE) {
            cache = subscribeTargets;
        } else {
            return null; // no mapping takes CONNECT, DISCONNECT, UNSUBSCRIBE or a heartbeat
        }
        String lookup = lookupDestination(SimpMessageHeaderAccessor.getDestination(headers));
        if (lookup == null) {
            return null;
        }
        Optional<HandlerMethod> target = cache.get(lookup);
        if (target == null) {
            target = find(type, lookup);
            if (cache.size() < CACHED) {
                cache.put(lookup, target);
            }
        }
        return target.orElse(null);
    }

    /** {@code AbstractMethodMessageHandler.handleMessageInternal}'s choice, if it is an {@code @OnContext} method. */
    private Optional<HandlerMethod> find(SimpMessageType type, String lookup) {
        Message<String> probe = MessageBuilder.createMessage("", new MessageHeaders(Map.of(
                SimpMessageHeaderAccessor.MESSAGE_TYPE_HEADER, type,
                DestinationPatternsMessageCondition.LOOKUP_DESTINATION_HEADER, lookup)));
        if (matches(onContext, probe).isEmpty()) {
            return Optional.empty(); // the common case for an unannotated destination: no sorting
        }
        List<Match> matches = matches(direct.getOrDefault(lookup, List.of()), probe);
        if (matches.isEmpty()) {
            matches = matches(all, probe);
        }
        Comparator<Match> better = (a, b) -> a.condition().compareTo(b.condition(), probe);
        matches.sort(better);
        Match best = matches.get(0);
        if (matches.size() > 1 && better.compare(best, matches.get(1)) == 0) {
            return Optional.empty(); // ambiguous: Spring's handler fails it with its own message
        }
        return onContext.contains(best.mapping()) ? Optional.ofNullable(methods.get(best.mapping())) : Optional.empty();
    }

    private @Nullable String lookupDestination(@Nullable String destination) {
        if (destination == null) {
            return null;
        }
        if (prefixes.isEmpty()) {
            return destination;
        }
        for (String prefix : prefixes) {
            if (destination.startsWith(prefix)) {
                return destination.substring(slashSeparator ? prefix.length() - 1 : prefix.length());
            }
        }
        return null;
    }

    private static List<Match> matches(List<SimpMessageMappingInfo> mappings, Message<?> probe) {
        List<Match> matches = new ArrayList<>(2);
        for (SimpMessageMappingInfo mapping : mappings) {
            SimpMessageMappingInfo condition = mapping.getMatchingCondition(probe);
            if (condition != null) {
                matches.add(new Match(condition, mapping));
            }
        }
        return matches;
    }

    /** A mapping that matches a message, and its conditions narrowed to that message (which sort the matches). */
    private record Match(SimpMessageMappingInfo condition, SimpMessageMappingInfo mapping) {
    }
}
