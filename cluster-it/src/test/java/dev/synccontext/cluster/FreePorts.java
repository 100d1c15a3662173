package dev.synccontext.cluster;

import dev.synccontext.testing.LocalProcess;

/** Free TCP ports on the loopback interface, for the daemons and nodes the tests start. */
final class FreePorts {

    private FreePorts() {
    }

    static int next() {
        return LocalProcess.freePort();
    }
}
