package dev.synccontext.test.cluster;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How {@link InMemoryCluster#call} picks the node that serves a request: the load balancer in front of the cluster.
 * Only running nodes (up or paused: a stalled node still accepts connections) are offered.
 */
@FunctionalInterface
public interface Routing {

    /**
     * Session affinity by a consistent hash of the session id over the node names (rendezvous hashing): a session
     * stays on its node while that node runs, and moves only when it stops.
     */
    static Routing affinity() {
        return (session, nodes) -> {
            ClusterNode best = nodes.get(0);
            long bestScore = Long.MIN_VALUE;
            for (ClusterNode node : nodes) {
                long score = mix((session + "@" + node.name()).hashCode());
                if (score > bestScore) {
                    best = node;
                    bestScore = score;
                }
            }
            return best;
        };
    }

    /** No affinity: each request goes to the next node in turn, whichever session it belongs to. */
    static Routing roundRobin() {
        AtomicLong next = new AtomicLong();
        return (session, nodes) -> nodes.get((int) Math.floorMod(next.getAndIncrement(), (long) nodes.size()));
    }

    /**
     * The node that serves a request of {@code session}.
     *
     * @param nodes the running nodes, in the order the cluster was built; never empty
     */
    ClusterNode pick(String session, List<ClusterNode> nodes);

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }
}
