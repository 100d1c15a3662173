package dev.synccontext.autoconfigure.live.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.nio.CharBuffer;
import org.apache.catalina.connector.InputBuffer;
import org.apache.catalina.connector.Request;
import org.junit.jupiter.api.Test;

/** The valve swaps Tomcat's 8,192-character reader buffer for a small one, and only while it is empty. */
class RequestBufferValveTest {

    @Test
    void thisTomcatHasTheFieldsTheValveReplaces() {
        assertThat(RequestBufferValve.unsupported()).as("why the valve cannot work on this Tomcat").isNull();
    }

    @Test
    void anEmptyReaderBufferIsReplacedByASmallOne() throws Exception {
        Request request = new Request(null, new org.apache.coyote.Request());
        assertThat(chars(request).capacity()).as("Tomcat's own (the premise)").isEqualTo(8192);

        new RequestBufferValve(256).shrink(request);

        assertThat(chars(request).capacity()).isEqualTo(256);
        assertThat(chars(request).limit()).as("empty, as Tomcat leaves it").isZero();
    }

    @Test
    void aReaderBufferHoldingCharactersIsLeftAlone() throws Exception {
        Request request = new Request(null, new org.apache.coyote.Request());
        CharBuffer holding = CharBuffer.allocate(8192).put("read but not consumed").flip();
        field(InputBuffer.class, "cb").set(input(request), holding);

        new RequestBufferValve(256).shrink(request);

        assertThat((Object) chars(request)).as("an async dispatch mid-read keeps its characters").isSameAs(holding);
    }

    @Test
    void aBufferAlreadySmallIsKept() throws Exception {
        Request request = new Request(null, new org.apache.coyote.Request());
        RequestBufferValve valve = new RequestBufferValve(256);
        valve.shrink(request);
        CharBuffer small = chars(request);

        valve.shrink(request); // the connection's next request

        assertThat((Object) chars(request)).isSameAs(small);
    }

    private static CharBuffer chars(Request request) throws Exception {
        return (CharBuffer) field(InputBuffer.class, "cb").get(input(request));
    }

    private static Object input(Request request) throws Exception {
        return field(Request.class, "inputBuffer").get(request);
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
