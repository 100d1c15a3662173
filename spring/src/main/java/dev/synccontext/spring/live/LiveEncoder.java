package dev.synccontext.spring.live;

/**
 * Turns a published value into the text a transport writes (the SSE {@code data} field, the WebSocket frame's
 * {@code data}). Called on a subscriber's drain thread, never inside the context. The default encodes JSON
 * with the application's Jackson {@code JsonMapper}; declare a bean of this type to replace it.
 */
@FunctionalInterface
public interface LiveEncoder {

    /** The encoded value; must not contain a line break for SSE (each line would become its own field). */
    String encode(Object data) throws Exception;
}
