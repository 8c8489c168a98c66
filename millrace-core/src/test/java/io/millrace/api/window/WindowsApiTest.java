package io.millrace.api.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.time.TimeDomain;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WindowsApiTest {

    @Test
    void factories_giveEventTimeAssignersWithTheirDefaultTriggers() {
        TimeWindows sliding = Windows.sliding(Duration.ofSeconds(10), Duration.ofSeconds(4), Duration.ofSeconds(-1));
        assertThat(sliding.size()).isEqualTo(10_000);
        assertThat(sliding.slide()).isEqualTo(4_000);
        assertThat(sliding.offset()).isEqualTo(3_000);
        assertThat(sliding.isTumbling()).isFalse();
        assertThat(sliding.timeDomain()).isEqualTo(TimeDomain.EVENT_TIME);
        assertThat(sliding.defaultTrigger()).isSameAs(Triggers.eventTime());
        assertThat(sliding.inProcessingTime().defaultTrigger()).isSameAs(Triggers.processingTime());
        assertThat(Windows.session(Duration.ofMinutes(1)).inProcessingTime().timeDomain()).isEqualTo(TimeDomain.PROCESSING_TIME);
        assertThat(Windows.global().defaultTrigger()).isSameAs(Triggers.never());
    }

    @Test
    void invalidWindowSizes_areRejectedWithTheValues() {
        assertThatThrownBy(() -> Windows.sliding(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not exceed its size");
        assertThatThrownBy(() -> Windows.tumbling(Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> Windows.session(Duration.ofMillis(-1))).hasMessageContaining("positive");
        assertThatThrownBy(() -> CountWindows.of(3, 4)).hasMessageContaining("must not exceed");
        assertThatThrownBy(() -> Triggers.count(0)).hasMessageContaining("positive");
    }

    @Test
    void purgingTrigger_turnsFireIntoFireAndPurge() throws Exception {
        Trigger<Object, Window> purging = Triggers.purging(Triggers.eventTime());
        TimeWindow w = new TimeWindow(0, 10);
        assertThat(purging.onEventTime(9, w, null)).isEqualTo(TriggerResult.FIRE_AND_PURGE);
        assertThat(purging.onEventTime(5, w, null)).isEqualTo(TriggerResult.CONTINUE);
        assertThat(purging.canMerge()).isTrue();
    }

    @Test
    void windowSpec_rejectsInconsistentSettings() {
        ProcessWindowFunction<Object, Object, Object, Window> pwf = new ProcessWindowFunction<>() {
            @Override
            public void process(Object key, Context<Window> ctx, Iterable<Object> elements, io.millrace.api.functions.Collector<Object> out) {}
        };
        assertThatThrownBy(() -> new WindowSpec(Windows.tumbling(Duration.ofSeconds(1)), null, 0, null, null, null, null))
                .hasMessageContaining("needs a reduce, aggregate or process");
        assertThatThrownBy(() -> new WindowSpec(Windows.sliding(Duration.ofSeconds(2), Duration.ofSeconds(1)),
                Triggers.purging(Triggers.count(2)), 0, null, null, null, pwf))
                .hasMessageContaining("purging trigger cannot be used on sliding windows");
        assertThatThrownBy(() -> new WindowSpec(CountWindows.of(2, 1), Triggers.count(2), 0, null, null, null, pwf))
                .hasMessageContaining("take no trigger");
        WindowSpec ok = new WindowSpec(Windows.tumbling(Duration.ofSeconds(1)), null, 5, new OutputTag<>("late"), null, null, pwf);
        assertThat(ok.keyed()).isTrue();
        assertThat(ok.usesDefaultTrigger()).isTrue();
        assertThat(ok.effectiveTrigger()).isSameAs(Triggers.eventTime());
    }
}
