package io.millrace.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.plan.IntervalJoinSpec;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.window.Windows;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the join builders put into the plan, and what they refuse. */
class JoinApiTest {
    static final class Concat extends ProcessJoinFunction<String, String, String> {
        @Override
        public void processElement(String left, String right, Context ctx, Collector<String> out) {
            out.collect(left + right);
        }
    }

    private static IntervalJoinSpec<?, ?, ?> intervalSpec(Pipeline p) {
        return p.plan().nodes().stream().map(LogicalNode::spec).filter(s -> s instanceof IntervalJoinSpec<?, ?, ?>)
                .map(s -> (IntervalJoinSpec<?, ?, ?>) s).findFirst().orElseThrow();
    }

    @Test
    void exclusiveBounds_becomeTheInclusiveMillisecondsInside() {
        Pipeline p = Pipeline.create();
        OutputTag<String> late = new OutputTag<>("late-left");
        p.fromElements("a").keyBy(s -> s).intervalJoin(p.fromElements("b").keyBy(s -> s))
                .between(Duration.ofSeconds(-2), Duration.ofSeconds(3))
                .lowerBoundExclusive().upperBoundExclusive()
                .sideOutputLeftLateData(late)
                .process(new Concat());
        IntervalJoinSpec<?, ?, ?> spec = intervalSpec(p);
        assertThat(spec.lower()).isEqualTo(-1_999);
        assertThat(spec.upper()).isEqualTo(2_999);
        assertThat(spec.leftLate()).isEqualTo(late);
        assertThat(spec.rightLate()).isNull();
        assertThat(spec.keyed()).isTrue();
    }

    @Test
    void theIntervalJoinNode_hasBothKeyedStreamsAsItsTwoInputs() {
        Pipeline p = Pipeline.create();
        p.fromElements("a").keyBy(s -> s).intervalJoin(p.fromElements("b").keyBy(s -> s))
                .between(Duration.ZERO, Duration.ZERO).process(new Concat());
        LogicalNode join = p.plan().nodes().stream().filter(n -> n.spec() instanceof IntervalJoinSpec<?, ?, ?>).findFirst().orElseThrow();
        assertThat(join.inputs()).extracting(e -> e.inputIndex()).containsExactly(0, 1);
        assertThat(join.inputs()).allSatisfy(e -> assertThat(e.partitioning()).isEqualTo(Partitioning.HASH));
    }

    @Test
    void boundsWithTheLowerAboveTheUpper_orNoMillisecondLeft_areRefusedNamingThem() {
        Pipeline p = Pipeline.create();
        KeyedStream<String, String> a = p.fromElements("a").keyBy(s -> s);
        KeyedStream<String, String> b = p.fromElements("b").keyBy(s -> s);
        assertThatThrownBy(() -> a.intervalJoin(b).between(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between(PT5S, PT1S)").hasMessageContaining("lower bound above");
        assertThatThrownBy(() -> a.intervalJoin(b).between(Duration.ofMillis(7), Duration.ofMillis(7)).lowerBoundExclusive().process(new Concat()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between(7 ms, 7 ms) with an exclusive lower bound contains no millisecond");
    }

    @Test
    void streamsOfDifferentPipelines_cannotBeJoined() {
        Pipeline p = Pipeline.create();
        Pipeline q = Pipeline.create();
        assertThatThrownBy(() -> p.fromElements("a").keyBy(s -> s).intervalJoin(q.fromElements("b").keyBy(s -> s)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different pipelines");
        assertThatThrownBy(() -> p.fromElements("a").join(q.fromElements("b")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different pipelines");
    }

    @Test
    void aWindowJoin_isOneKeyedWindowNamedWindowJoinOverBothTaggedSides() {
        Pipeline p = Pipeline.create();
        p.fromElements("a").join(p.fromElements("b")).where(s -> s).equalTo(s -> s)
                .window(Windows.tumbling(Duration.ofSeconds(1))).apply((l, r) -> l + r);
        LogicalNode window = p.plan().nodes().stream().filter(n -> n.name().equals("windowJoin")).findFirst().orElseThrow();
        assertThat(window.inputs()).hasSize(2).allSatisfy(e -> assertThat(e.partitioning()).isEqualTo(Partitioning.HASH));
        assertThat(window.inputs()).extracting(e -> e.from().name()).containsExactlyInAnyOrder("windowJoin-left", "windowJoin-right");
    }
}
