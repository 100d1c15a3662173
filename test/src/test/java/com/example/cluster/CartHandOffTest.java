package com.example.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.test.Explorer;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.cluster.ClusterNode;
import dev.synccontext.test.cluster.InMemoryCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class CartHandOffTest {

    /** The application's durable, context-scoped cart. */
    @Durable(name = "cart")
    public static class Cart {
        private List<String> items = new ArrayList<>();

        public List<String> getItems() {
            return items;
        }

        public void setItems(List<String> items) {
            this.items = items;
        }
    }

    @Test
    void theCartSurvivesADeployAndAKill() {
        SyncContextTestKit kit = SyncContextTestKit.create();
        InMemoryCluster cluster = InMemoryCluster.builder(kit).nodes("a", "b").durable(Cart.class)
                .nodeLeaseTtl(Duration.ofSeconds(15)).debounce(Duration.ofMillis(200)).build();
        ClusterNode a = cluster.node("a");

        add(kit, a, "tea");
        a.deploy();                                   // drain, final snapshot, release, start empty
        assertThat(add(kit, cluster.node("b"), "milk")).containsExactly("tea", "milk");

        kit.advanceBy(Duration.ofMillis(200));        // b's debounced snapshot is written
        cluster.node("b").kill();                     // nothing written, its lease runs out in 15 s
        kit.advanceBy(Duration.ofSeconds(15));
        assertThat(add(kit, a, "bread")).containsExactly("tea", "milk", "bread");
        cluster.close();
    }

    @Test
    void noInterleavingOfADeployLosesAnItem() {
        Explorer.explore(1, 50, kit -> {
            InMemoryCluster cluster = InMemoryCluster.builder(kit).nodes("a", "b").durable(Cart.class).build();
            CompletableFuture<List<String>> first = cluster.node("a").call("s1", call -> put(call.bean(Cart.class), "tea"));
            kit.executor().execute(cluster.node("a")::deploy);   // interleaved with the request by the seed
            kit.runUntilIdle();
            boolean acknowledged = !first.isCompletedExceptionally();
            CompletableFuture<List<String>> second = cluster.node("b").call("s1", call -> put(call.bean(Cart.class), "milk"));
            kit.runUntilIdle();
            assertThat(second.join()).isEqualTo(acknowledged ? List.of("tea", "milk") : List.of("milk"));
            cluster.close();
        });
    }

    private static List<String> add(SyncContextTestKit kit, ClusterNode node, String item) {
        CompletableFuture<List<String>> items = node.call("s1", call -> put(call.bean(Cart.class), item));
        kit.runUntilIdle();
        return items.join();
    }

    private static List<String> put(Cart cart, String item) {
        cart.getItems().add(item);
        return List.copyOf(cart.getItems());
    }
}
