package io.millrace.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * A waiting task is woken by a watermark alone only from the watermark it published as the lowest that can make
 * it do anything; records, other control elements and mails wake it whatever it published, and a watermark that
 * did not wake it stays in the channel, in order.
 */
class WatermarkWakeTest {
    private static Object put(Channel channel, Object element) {
        channel.put(element, () -> false, Clock.system());
        return element;
    }

    @Test
    void watermarksBelowThePublishedOne_doNotWakeTheTask_othersAndEverythingElseDo() {
        TaskSignal signal = new TaskSignal();
        Channel channel = new Channel("window", 0, "results", 0, 16, 4, signal);
        signal.wakeWatermark(1_000);
        signal.prepareWait();

        put(channel, new ControlElement.WatermarkElement(10));
        put(channel, new ControlElement.WatermarkElement(999));
        assertThat(signal.wakeups()).as("below 1,000").isZero();

        put(channel, new ControlElement.WatermarkElement(1_000));
        assertThat(signal.wakeups()).as("at 1,000").isEqualTo(1);

        signal.prepareWait();
        RecordBatch batch = channel.newBatch();
        batch.add("record", 5);
        put(channel, batch);
        assertThat(signal.wakeups()).as("a batch").isEqualTo(2);

        signal.prepareWait();
        put(channel, ControlElement.IdleStatus.IDLE);
        assertThat(signal.wakeups()).as("an idleness change").isEqualTo(3);

        signal.prepareWait();
        signal.signal(); // a mail
        assertThat(signal.wakeups()).isEqualTo(4);

        assertThat(((ControlElement.WatermarkElement) channel.poll()).watermark()).isEqualTo(10);
        assertThat(((ControlElement.WatermarkElement) channel.poll()).watermark()).isEqualTo(999);
        assertThat(((ControlElement.WatermarkElement) channel.poll()).watermark()).isEqualTo(1_000);
        assertThat(channel.poll()).isSameAs(batch);
    }

    @Test
    void theDefault_andATaskThatIsNotWaiting() {
        TaskSignal signal = new TaskSignal();
        Channel channel = new Channel("a", 0, "b", 0, 16, 4, signal);
        signal.prepareWait();
        put(channel, new ControlElement.WatermarkElement(Long.MIN_VALUE + 1));
        assertThat(signal.wakeups()).as("nothing published: every watermark wakes").isEqualTo(1);

        signal.wakeWatermark(Long.MAX_VALUE);
        signal.cancelWait();
        put(channel, new ControlElement.WatermarkElement(Long.MAX_VALUE));
        assertThat(signal.wakeups()).as("not waiting: nothing to wake").isEqualTo(1);
        signal.prepareWait();
        put(channel, new ControlElement.WatermarkElement(Long.MAX_VALUE));
        assertThat(signal.wakeups()).as("the final watermark wakes a task that only waits for the end").isEqualTo(2);
    }
}
