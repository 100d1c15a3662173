package dev.synccontext.cluster;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;

/**
 * A real {@code redis-server} and two nodes of one application in this JVM, started once for the test class and
 * stopped after it ({@link ClusterTeardown}), the sessions under a redis namespace of the class's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("cluster")
abstract class TwoNodeCluster {

    RedisServer redis;
    RedisClient redisClient;
    Node nodeA;
    Node nodeB;
    final String namespace = "it:" + getClass().getSimpleName();

    /** {@code default} or {@code indexed}. */
    final String repositoryType;

    /** Node properties of this cluster. */
    final Map<String, String> nodeProperties;

    private final Class<?> application;

    TwoNodeCluster(Class<?> application, String repositoryType, Map<String, String> nodeProperties) {
        this.application = application;
        this.repositoryType = repositoryType;
        this.nodeProperties = nodeProperties;
    }

    @BeforeAll
    void startCluster() {
        redis = RedisServer.start();
        redisClient = redis.client();
        nodeA = Node.start(application, "node-a", redis.port, repositoryType, namespace, nodeProperties);
        nodeB = Node.start(application, "node-b", redis.port, repositoryType, namespace, nodeProperties);
    }

    @AfterAll
    void stopCluster() {
        ClusterTeardown.stop(redis, redisClient, nodeA, nodeB);
    }
}
