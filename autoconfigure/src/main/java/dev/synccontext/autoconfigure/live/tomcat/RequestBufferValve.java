package dev.synccontext.autoconfigure.live.tomcat;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.CharBuffer;
import org.apache.catalina.connector.InputBuffer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.jspecify.annotations.Nullable;

/**
 * Gives each request a reader's character buffer of {@code chars} characters instead of Tomcat's 8,192 (16 KB).
 *
 * <p>Tomcat's {@code Request} makes its {@code InputBuffer} in its constructor, with a {@code char[8192]} for
 * {@code getReader()}, and keeps it as long as its connection lives: a live stream holds it while it is open, read
 * or not. No setting sizes it, and the field is final, so this valve replaces the buffer inside it (a private field,
 * {@code cb}) with a smaller one before the request reaches the application. Tomcat grows that buffer again when a
 * reader's {@code mark} needs more, and puts its own back on recycle only if it grew past 8,192 characters; a
 * body larger than the buffer is converted in several rounds, never cut.
 *
 * <p>The buffer is replaced only while it holds no characters (a request nobody read as characters yet), so an
 * asynchronous dispatch of a request already being read is left alone. Tomcat's field names are looked up once
 * ({@link #unsupported()} says why they are missing); without them the valve is not installed.
 */
final class RequestBufferValve extends ValveBase {

    /** Tomcat's two fields, or {@code null} when this Tomcat lacks them. */
    private static final @Nullable Fields FIELDS;
    private static final @Nullable RuntimeException UNSUPPORTED;

    static {
        Fields fields = null;
        RuntimeException unsupported = null;
        try {
            fields = new Fields(MethodHandles.privateLookupIn(Request.class, MethodHandles.lookup())
                    .findVarHandle(Request.class, "inputBuffer", InputBuffer.class),
                    MethodHandles.privateLookupIn(InputBuffer.class, MethodHandles.lookup())
                            .findVarHandle(InputBuffer.class, "cb", CharBuffer.class));
        } catch (ReflectiveOperationException | RuntimeException changed) {
            unsupported = new IllegalStateException("This Tomcat's Request.inputBuffer or InputBuffer.cb is not"
                    + " the field synccontext.live.tomcat.request-buffer replaces: " + changed, changed);
        }
        FIELDS = fields;
        UNSUPPORTED = unsupported;
    }

    private final Fields fields;
    private final int chars;

    /** @throws IllegalStateException if {@link #unsupported()} is not {@code null} */
    RequestBufferValve(int chars) {
        super(true);
        if (FIELDS == null) {
            throw new IllegalStateException("request-buffer unsupported", UNSUPPORTED);
        }
        this.fields = FIELDS;
        this.chars = chars;
    }

    /** Why this Tomcat's request buffer cannot be replaced, or {@code null} when it can. */
    static @Nullable RuntimeException unsupported() {
        return UNSUPPORTED;
    }

    int chars() {
        return chars;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        shrink(request);
        getNext().invoke(request, response);
    }

    /** Replaces the request's reader buffer with a small one while it is larger and empty. */
    void shrink(Request request) {
        InputBuffer input = (InputBuffer) fields.inputBuffer().get(request);
        CharBuffer current = (CharBuffer) fields.chars().get(input);
        // limit() == 0: nothing converted yet (Tomcat's empty state), so no character can be lost.
        if (current.capacity() > chars && current.limit() == 0) {
            fields.chars().set(input, CharBuffer.allocate(chars).limit(0));
        }
    }

    /** {@code Request.inputBuffer} (final, read only) and {@code InputBuffer.cb}. */
    private record Fields(VarHandle inputBuffer, VarHandle chars) {
    }
}
