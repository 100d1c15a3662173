package dev.synccontext;

/** What a blocking call threw, so a test can run it inside a callback and assert on the outcome afterwards. */
final class Catching {

    /** A call that may block and may throw anything. */
    interface Blocking {
        Object call() throws Exception;
    }

    private Catching() {
    }

    /** The throwable {@code call} ended with, or {@code null} if it returned. */
    static Throwable catching(Blocking call) {
        try {
            call.call();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
