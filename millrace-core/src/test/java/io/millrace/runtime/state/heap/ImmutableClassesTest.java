package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ImmutableClassesTest {
    record Point(long x, double y, String label, TimeUnit unit) {}

    record Segment(Point from, Point to, Instant at) {}

    record Tagged(String name, List<String> tags) {}

    record Amount(BigDecimal value) {}

    record Node(String name, Node next) {}

    static final class Counter {
        long n;
    }

    record Holder(Counter counter) {}

    @Test
    void stringsBoxedValuesEnumsAndJdkValueClasses_areImmutable() {
        for (Object v : new Object[] {null, "s", 1L, 2, 3.0, 'c', true, TimeUnit.SECONDS, Instant.EPOCH, BigDecimal.ONE}) {
            assertThat(ImmutableClasses.isImmutable(v)).as("%s", v).isTrue();
        }
    }

    @Test
    void recordsOfImmutableComponents_nestedAndSelfReferring_areImmutable() {
        Point p = new Point(1, 2, "a", TimeUnit.SECONDS);
        assertThat(ImmutableClasses.isImmutable(p)).isTrue();
        assertThat(ImmutableClasses.isImmutable(new Segment(p, p, Instant.EPOCH))).isTrue();
        assertThat(ImmutableClasses.isImmutable(new Node("a", new Node("b", null)))).isTrue();
    }

    @Test
    void plainClassesCollectionsArraysAndRecordsHoldingThemOrOpenTypes_areMutable() {
        assertThat(ImmutableClasses.isImmutable(new Counter())).isFalse();
        assertThat(ImmutableClasses.isImmutable(new ArrayList<>())).isFalse();
        assertThat(ImmutableClasses.isImmutable(new long[1])).isFalse();
        assertThat(ImmutableClasses.isImmutable(new Holder(new Counter()))).isFalse();
        assertThat(ImmutableClasses.isImmutable(new Tagged("t", List.of()))).as("an interface component").isFalse();
        assertThat(ImmutableClasses.isImmutable(new Amount(BigDecimal.ONE))).as("a non-final class component").isFalse();
    }
}
