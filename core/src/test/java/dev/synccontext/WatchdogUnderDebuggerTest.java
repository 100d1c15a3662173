package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The watchdog stays quiet while a debugger holds the JVM: a child JVM ({@link HeldJvmProbe}) runs a
 * callback past its 1 s threshold in wall time only because a real debugger (JDI over JDWP) suspended
 * the whole JVM for 3 s in the middle of it; the watchdog does not report it. The control: the same
 * callback running 2.5 s unsuspended is reported.
 */
@Tag("process")
class WatchdogUnderDebuggerTest {

    private static final Pattern LISTENING = Pattern.compile("Listening for transport dt_socket at address: (\\d+)");

    @Test
    void aCallbackThatOnlyLooksLongBecauseADebuggerSuspendedTheJvmIsNotReported() throws Exception {
        Child child = Child.start(3_500);
        child.started.await(30, TimeUnit.SECONDS);
        VirtualMachine vm = attach(child.port());
        try {
            vm.suspend();
            TimeUnit.SECONDS.sleep(3); // the debugger holds the JVM for 3 s: the scenario itself, not a race
            vm.resume();
        } finally {
            vm.dispose();
        }
        assertThat(child.exited.await(60, TimeUnit.SECONDS)).as("child exited").isTrue();
        assertThat(child.lines).contains("STARTED", "EXIT").noneMatch(line -> line.startsWith("REPORTED"));
    }

    @Test
    void theSameProbeReportsACallbackThatReallyRunsPastItsThreshold() throws Exception {
        Child child = Child.start(2_500);
        assertThat(child.exited.await(60, TimeUnit.SECONDS)).as("child exited").isTrue();
        assertThat(child.lines).contains("STARTED", "EXIT").anyMatch(line -> line.startsWith("REPORTED"));
    }

    private static VirtualMachine attach(int port) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.name().equals("com.sun.jdi.SocketAttach")).findFirst().orElseThrow();
        Map<String, Connector.Argument> arguments = socket.defaultArguments();
        arguments.get("hostname").setValue("127.0.0.1");
        arguments.get("port").setValue(Integer.toString(port));
        return socket.attach(arguments);
    }

    /** The child JVM and what it printed. */
    private static final class Child {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final CountDownLatch listening = new CountDownLatch(1);
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch exited = new CountDownLatch(1);
        volatile int port;

        static Child start(long holdMillis) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0",
                    HeldJvmProbe.class.getName(), Long.toString(holdMillis)).redirectErrorStream(true).start();
            Child child = new Child();
            Thread reader = new Thread(() -> child.read(process), "probe-output");
            reader.setDaemon(true);
            reader.start();
            assertThat(child.listening.await(30, TimeUnit.SECONDS)).as("JDWP listening").isTrue();
            return child;
        }

        int port() {
            return port;
        }

        private void read(Process process) {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null;) {
                    lines.add(line);
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port = Integer.parseInt(m.group(1));
                        listening.countDown();
                    }
                    if (line.equals("STARTED")) {
                        started.countDown();
                    }
                    if (line.equals("EXIT")) {
                        exited.countDown();
                    }
                }
            } catch (java.io.IOException e) {
                lines.add("read failed: " + e);
            }
        }
    }
}
