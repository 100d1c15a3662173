package dev.synccontext.spring;

/**
 * A startup check found a configuration under which the library would not keep its promise (an
 * {@code @OnContext} body that would run off its context, a handler that cannot wait for a busy one). It is
 * thrown while the application context starts, never later, and carries what is wrong ({@link #description()})
 * apart from what to do about it ({@link #action()}), so that Spring Boot's failure analysis can print them as
 * its "Description" and "Action"; its message is both, for applications without Boot.
 *
 * <p>An {@link IllegalStateException}, as these checks threw before it existed.
 */
public class SyncContextConfigurationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;
    private final String action;

    public SyncContextConfigurationException(String description, String action) {
        super(description + " " + action);
        this.description = description;
        this.action = action;
    }

    /** What is wrong, naming the handler or bean. */
    public String description() {
        return description;
    }

    /** What to change so that the application starts. */
    public String action() {
        return action;
    }
}
