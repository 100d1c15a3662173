package dev.synccontext.spring.live;

import java.util.Map;

/**
 * Spring's STOMP outbound threads still blocked in Tomcat's blocking send to a client that stopped reading. Tomcat
 * holds such a thread until its 20 s send timeout even after Spring closed the session and the connection is gone,
 * and stopping the application context waits for it: Spring pauses its task executors until their running tasks
 * end, which Spring's test framework does to a cached context whenever the next test class needs another one.
 * A test that stalled a client interrupts those threads when it is done; Tomcat ends the write with an
 * {@code IOException}, which Spring logs.
 */
final class StalledOutboundWrites {

    private StalledOutboundWrites() {
    }

    /** Interrupts every {@code clientOutboundChannel} thread that is inside Tomcat's blocking send; how many. */
    static int interrupt() {
        int interrupted = 0;
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            if (thread.getKey().getName().startsWith("clientOutboundChannel-") && inBlockingSend(thread.getValue())) {
                thread.getKey().interrupt();
                interrupted++;
            }
        }
        return interrupted;
    }

    private static boolean inBlockingSend(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals("org.apache.tomcat.websocket.WsRemoteEndpointImplBase")
                    && frame.getMethodName().startsWith("sendMessageBlock")) {
                return true;
            }
        }
        return false;
    }
}
