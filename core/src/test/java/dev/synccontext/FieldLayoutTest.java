package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The owner's fields and the producers' fields of a context sit on different cache lines
 * ({@link OwnerSide} says why): every byte of the one is at least 64 bytes from every byte of the
 * other, whatever the object's alignment. Offsets come from the running JVM's own layout, which places
 * a subclass's small fields into holes of its superclasses, so this fails if a field added anywhere in
 * the hierarchy lands between them.
 */
class FieldLayoutTest {

    private static final int CACHE_LINE = 64;
    /** 4 bytes with compressed references (the default below 32 GB of heap), 8 without. */
    @SuppressWarnings({"deprecation", "removal"})
    private static final int REFERENCE_SIZE = sun.misc.Unsafe.ARRAY_OBJECT_INDEX_SCALE;

    @Test
    void ownerFieldsAreACacheLineAwayFromProducerFields() throws Exception {
        List<long[]> owner = new ArrayList<>();
        for (String name : List.of("headChunk", "owner", "progress", "headIndex")) {
            owner.add(span(OwnerSide.class.getDeclaredField(name)));
        }
        List<long[]> producers = List.of(span(CallbackQueue.class.getDeclaredField("tailChunk")),
                span(ContextState.class.getDeclaredField("state")));

        for (long[] o : owner) {
            for (long[] p : producers) {
                // Two bytes 64 apart are on different 64-byte lines wherever the object starts.
                long distance = Math.max(p[0] - (o[1] - 1), o[0] - (p[1] - 1));
                assertThat(distance).as("from an owner field at %d to a producer field at %d", o[0], p[0])
                        .isGreaterThanOrEqualTo(CACHE_LINE);
            }
        }
    }

    @Test
    void noOtherFieldOfTheHierarchyLandsBetweenThePaddingAndTheOwnerFields() {
        // Every instance field of the context is either an owner field, a fill or pad field, or lies
        // after the padding: the owner side stays the first 32 bytes of the object, wherever it starts.
        long padStart = Long.MAX_VALUE;
        for (Field f : OwnerSidePadding.class.getDeclaredFields()) {
            padStart = Math.min(padStart, offset(f));
        }
        for (Class<?> c = SyncContext.class; c != OwnerSidePadding.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    assertThat(offset(f)).as("offset of %s.%s", c.getSimpleName(), f.getName())
                            .isGreaterThan(padStart);
                }
            }
        }
    }

    private static long[] span(Field field) {
        long start = offset(field);
        return new long[] {start, start + size(field.getType())};
    }

    private static int size(Class<?> type) {
        if (type == long.class || type == double.class) {
            return 8;
        }
        if (type == int.class || type == float.class) {
            return 4;
        }
        if (type == short.class || type == char.class) {
            return 2;
        }
        if (type == byte.class || type == boolean.class) {
            return 1;
        }
        return REFERENCE_SIZE;
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static long offset(Field field) {
        try {
            Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return ((sun.misc.Unsafe) theUnsafe.get(null)).objectFieldOffset(field);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot read field offsets on this JVM", e);
        }
    }
}
