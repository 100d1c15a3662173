package dev.synccontext.spring.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.spring.durable.SnapshotRefusedException.Reason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class SnapshotCodecTest {

    record Cart(List<String> items, int total) {
    }

    record Wizard(int step) {
    }

    private final JsonMapper mapper = JsonMapper.builder().build();

    /** Cart at version 2; version 1 kept its items as one comma-separated string and had no total. */
    private final DurableType<Cart> cart = DurableType.of("cart", Cart.class, 2).upgrade(1, state -> {
        ObjectNode upgraded = mapper.createObjectNode();
        ArrayNode items = upgraded.putArray("items");
        for (String item : state.get("items").stringValue().split(",")) {
            items.add(item);
        }
        upgraded.put("total", items.size());
        return upgraded;
    });

    private final SnapshotCodec codec = SnapshotCodec.builder(mapper).maxBytes(1024).register(cart)
            .register(DurableType.of("wizard", Wizard.class, 1)).build();

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertRefused(ThrowingCallable call, Reason reason, String messagePart) {
        assertThatThrownBy(call).isInstanceOfSatisfying(SnapshotRefusedException.class, refused -> {
            assertThat(refused.reason()).as(refused.getMessage()).isEqualTo(reason);
            assertThat(refused.getMessage()).contains(messagePart);
        });
    }

    @Test
    void aSnapshotRestoresEveryBeanByItsRegisteredTypeInOrder() {
        Map<String, Object> beans = new LinkedHashMap<>();
        beans.put("shoppingCart", new Cart(List.of("tea", "cups"), 2));
        beans.put("checkout", new Wizard(3));
        byte[] bytes = codec.encode(beans);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"format\":1,\"beans\":{"
                + "\"shoppingCart\":{\"type\":\"cart\",\"version\":2,\"state\":{\"items\":[\"tea\",\"cups\"],\"total\":2}},"
                + "\"checkout\":{\"type\":\"wizard\",\"version\":1,\"state\":{\"step\":3}}}}");
        assertThat(codec.decode(bytes)).containsExactly(Map.entry("shoppingCart", new Cart(List.of("tea", "cups"), 2)),
                Map.entry("checkout", new Wizard(3)));
        assertThat(codec.encode(beans)).as("equal states, equal bytes").isEqualTo(bytes);
    }

    @Test
    void anOlderVersionIsUpgradedStepByStepBeforeItIsBound() {
        byte[] v1 = utf8("{\"format\":1,\"beans\":{\"c\":{\"type\":\"cart\",\"version\":1,"
                + "\"state\":{\"items\":\"tea,cups,pot\"}}}}");
        assertThat(codec.decode(v1)).containsExactly(Map.entry("c", new Cart(List.of("tea", "cups", "pot"), 3)));
    }

    @Test
    void aVersionWithoutAnUpgradeStepIsRefused() {
        byte[] v1 = utf8("{\"format\":1,\"beans\":{\"c\":{\"type\":\"cart\",\"version\":1,"
                + "\"state\":{\"items\":\"tea\"}}}}");
        SnapshotCodec withoutStep = SnapshotCodec.builder(mapper)
                .register(DurableType.of("cart", Cart.class, 2)).build();
        assertRefused(() -> withoutStep.decode(v1), Reason.UNKNOWN_VERSION, "add .upgrade(1, state -> ...)");
        assertThat(codec.decode(v1)).as("premise: with the step, the same bytes restore").hasSize(1);
    }

    @Test
    void aVersionFromANewerDeploymentIsRefused() {
        assertRefused(() -> codec.decode(utf8("{\"format\":1,\"beans\":{\"c\":{\"type\":\"cart\",\"version\":3,"
                + "\"state\":{\"items\":[],\"total\":0}}}}")), Reason.NEWER_VERSION, "newer than this node's");
    }

    @Test
    void anUnknownTypeIsRefusedAndTheDataNeverNamesAClass() {
        assertRefused(() -> codec.decode(utf8("{\"format\":1,\"beans\":{\"p\":{\"type\":\"java.lang.ProcessBuilder\","
                + "\"version\":1,\"state\":{\"command\":[\"touch\",\"/tmp/pwned\"]}}}}")), Reason.UNKNOWN_TYPE,
                "it registers");
    }

    @Test
    void oneRefusedBeanRefusesTheWholeSnapshot() {
        assertRefused(() -> codec.decode(utf8("{\"format\":1,\"beans\":{"
                + "\"w\":{\"type\":\"wizard\",\"version\":1,\"state\":{\"step\":1}},"
                + "\"x\":{\"type\":\"gone\",\"version\":1,\"state\":{}}}}")), Reason.UNKNOWN_TYPE, "'gone'");
    }

    @Test
    void malformedBytesAreRefused() {
        List<String> malformed = List.of("", "not json", "{\"format\":1,\"beans\":{", "[]", "{}",
                "{\"format\":2,\"beans\":{}}", "{\"format\":\"1\",\"beans\":{}}", "{\"format\":1,\"beans\":[]}",
                "{\"format\":1,\"beans\":{},\"extra\":true}", "{\"format\":1,\"format\":1,\"beans\":{}}",
                "{\"format\":1,\"beans\":{}} trailing",
                "{\"format\":1,\"beans\":{\"w\":{\"type\":\"wizard\",\"version\":0,\"state\":{}}}}",
                "{\"format\":1,\"beans\":{\"w\":{\"type\":\"wizard\",\"version\":1}}}",
                "{\"format\":1,\"beans\":{\"w\":{\"type\":7,\"version\":1,\"state\":{}}}}");
        for (String bytes : malformed) {
            assertThatThrownBy(() -> codec.decode(utf8(bytes))).as(bytes)
                    .isInstanceOfSatisfying(SnapshotRefusedException.class,
                            refused -> assertThat(refused.reason()).as(bytes).isEqualTo(Reason.MALFORMED));
        }
        assertThat(codec.decode(utf8("{\"format\":1,\"beans\":{}}"))).as("premise: the empty envelope").isEmpty();
    }

    @Test
    void javaSerializedBytesAreRefusedAsMalformed() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(List.of("a")));
        }
        assertRefused(() -> codec.decode(bytes.toByteArray()), Reason.MALFORMED, "not JSON");
    }

    @Test
    void nothingInThePackagesReferencesObjectInputStream() throws IOException {
        Path classes = Path.of("target/classes/dev/synccontext/spring/durable");
        assertThat(classesReferencing(classes, "java/io/ObjectInputStream")).isEmpty();
        assertThat(classesReferencing(Path.of("target/test-classes/dev/synccontext/spring/durable"),
                "java/io/ObjectInputStream")).as("premise: the scan finds this test's own reference")
                .contains("SnapshotCodecTest.class");
        // The reference the premise finds: this class names ObjectInputStream in its constant pool.
        assertThat(ObjectInputStream.class.getName()).isEqualTo("java.io.ObjectInputStream");
    }

    private static List<String> classesReferencing(Path root, String internalName) throws IOException {
        byte[] needle = internalName.getBytes(StandardCharsets.UTF_8);
        List<String> found = new ArrayList<>();
        assertThat(root).as("compiled classes").isDirectory();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".class")).toList()) {
                if (indexOf(Files.readAllBytes(file), needle) >= 0) {
                    found.add(file.getFileName().toString());
                }
            }
        }
        return found;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void anOversizedSnapshotIsRefusedBeforeParsing() {
        byte[] valid = codec.encode(Map.of("c", new Cart(List.of("x".repeat(900)), 1)));
        SnapshotCodec small = SnapshotCodec.builder(mapper).maxBytes(512).register(cart).build();
        assertRefused(() -> small.decode(valid), Reason.OVERSIZED, "over the budget of 512 (not parsed)");
        assertThat(codec.decode(valid)).as("premise: the same bytes within budget").hasSize(1);
        byte[] hugeGarbage = new byte[2048];
        assertRefused(() -> codec.decode(hugeGarbage), Reason.OVERSIZED, "2048 bytes");
    }

    @Test
    void encodingOverTheBudgetIsRefusedNamingEachBeansShare() {
        assertRefused(() -> codec.encode(Map.of("big", new Cart(List.of("x".repeat(2000)), 1))), Reason.OVERSIZED,
                "big: ");
    }

    @Test
    void encodingAnUnregisteredClassIsRefusedNamingTheFix() {
        assertRefused(() -> codec.encode(Map.of("n", new StringBuilder("x"))), Reason.UNWRITABLE_STATE,
                "DurableType.of(\"name\", StringBuilder.class, 1)");
    }

    @Test
    void aFailingOrNullUpgradeStepIsRefused() {
        String v1 = "{\"format\":1,\"beans\":{\"c\":{\"type\":\"cart\",\"version\":1,\"state\":{\"items\":\"a\"}}}}";
        SnapshotCodec throwing = SnapshotCodec.builder(mapper).register(DurableType.of("cart", Cart.class, 2)
                .upgrade(1, state -> {
                    throw new IllegalStateException("bug in the step");
                })).build();
        assertRefused(() -> throwing.decode(utf8(v1)), Reason.MIGRATION_FAILED, "bug in the step");
        SnapshotCodec nulling = SnapshotCodec.builder(mapper)
                .register(DurableType.of("cart", Cart.class, 2).upgrade(1, state -> null)).build();
        assertRefused(() -> nulling.decode(utf8(v1)), Reason.MIGRATION_FAILED, "returned null");
    }

    @Test
    void aStateThatDoesNotBindIsRefused() {
        assertRefused(() -> codec.decode(utf8("{\"format\":1,\"beans\":{\"w\":{\"type\":\"wizard\",\"version\":1,"
                + "\"state\":{\"step\":\"not a number\"}}}}")), Reason.UNREADABLE_STATE, "bump the version");
    }

    @Test
    void typesAreCheckedWhenRegistered() {
        assertThatThrownBy(() -> DurableType.of("has space", Cart.class, 1)).hasMessageContaining("stable name");
        assertThatThrownBy(() -> DurableType.of("cart", Cart.class, 0)).hasMessageContaining("start at 1");
        assertThatThrownBy(() -> DurableType.of("cart", Cart.class, 2).upgrade(2, s -> s))
                .hasMessageContaining("from a version 1 to 1");
        assertThatThrownBy(() -> SnapshotCodec.builder(mapper).register(cart)
                .register(DurableType.of("cart", Wizard.class, 1))).hasMessageContaining("Two durable types");
        assertThatThrownBy(() -> SnapshotCodec.builder(mapper).register(cart)
                .register(DurableType.of("cart2", Cart.class, 1))).hasMessageContaining("registered twice");
    }
}
