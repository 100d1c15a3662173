package dev.synccontext.test.cluster;

/**
 * A request the cluster could not serve on the chosen node: the node was killed (before or while the request was in
 * flight) or is not running. What a client sees as a refused or reset connection; the request's effect is unknown
 * to it, so a scenario counts it as not acknowledged.
 */
public final class NodeDownException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    NodeDownException(String message) {
        super(message);
    }
}
