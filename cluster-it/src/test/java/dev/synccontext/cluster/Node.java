package dev.synccontext.cluster;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.session.SessionContexts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One application node started in this JVM ({@link ClusterApp} with its own Tomcat on a free port, its
 * own Redis connections, registry and session contexts), so a test can look at its beans directly.
 */
final class Node implements AutoCloseable {

    final String id;
    final int port;
    final ConfigurableApplicationContext context;

    private Node(String id, int port, ConfigurableApplicationContext context) {
        this.id = id;
        this.port = port;
        this.context = context;
    }

    /** The properties every node of a test cluster shares, plus its own id and port; {@code extra} adds or replaces. */
    static List<String> properties(String id, int port, int redisPort, String repositoryType, String namespace,
            Map<String, String> extra) {
        List<String> properties = new ArrayList<>(List.of(
                "--server.port=" + port,
                "--server.address=127.0.0.1",
                // After each reload nginx's new workers connect for every request in flight at once (up to 190
                // connects measured in the rolling restart); Tomcat's backlog of 100 dropped the rest, and a connect
                // the kernel retries at 1 s and 3 s outlasts nginx's 2 s connect timeout (autoconfigure/docs/several-nodes.md).
                "--server.tomcat.accept-count=1024",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort,
                "--spring.session.data.redis.repository-type=" + repositoryType,
                "--spring.session.data.redis.namespace=" + namespace,
                "--synccontext.session.node-id=" + id,
                "--synccontext.shutdown-timeout=2s",
                "--management.endpoints.web.exposure.include=health,synccontext,prometheus",
                "--spring.main.banner-mode=off",
                "--logging.level.root=warn",
                "--logging.level.dev.synccontext=info"));
        // A key given twice on the command line would bind as "first,second": an extra replaces the shared value.
        properties.removeIf(property -> extra.containsKey(property.substring(2, property.indexOf('='))));
        extra.forEach((key, value) -> properties.add("--" + key + "=" + value));
        return properties;
    }

    static Node start(String id, int redisPort, String repositoryType, String namespace, Map<String, String> extra) {
        return start(ClusterApp.class, id, redisPort, repositoryType, namespace, extra);
    }

    static Node start(Class<?> application, String id, int redisPort, String repositoryType, String namespace,
            Map<String, String> extra) {
        int port = FreePorts.next();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                .run(properties(id, port, redisPort, repositoryType, namespace, extra).toArray(String[]::new));
        return new Node(id, port, context);
    }

    SessionContexts sessions() {
        return context.getBean(SessionContexts.class);
    }

    SyncContextRegistry registry() {
        return context.getBean(SyncContextRegistry.class);
    }

    /** Open contexts of the session scope on this node. */
    int openSessionContexts() {
        return registry().statistics("session").contexts();
    }

    @Override
    public void close() {
        context.close();
    }
}
