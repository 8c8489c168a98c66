package io.millrace.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import io.millrace.testing.Await;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A waiting task is woken by a watermark alone only from the watermark it published as the lowest that can make
 * it do anything, and only once every channel into it has put a watermark that high (idle and ended channels
 * hold nothing back); records, other control elements and mails wake it whatever it published, and a watermark
 * that did not wake it stays in the channel, in order. Watermarks that gather while it sleeps may fill a channel
 * beyond its bound (not beyond its capacity); a producer that finds a channel full wakes the consumer before it waits
 * (on a put, or pausing until the channel is writable).
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

    @Test
    void aProducerAheadOfTheOthers_doesNotWakeTheTask_theOneCompletingTheCrossingDoes() {
        TaskSignal signal = new TaskSignal();
        Channel ahead = new Channel("a", 0, "b", 0, 16, 4, signal);
        Channel behind = new Channel("a", 1, "b", 0, 16, 4, signal);
        signal.wakeWatermark(100);
        signal.prepareWait();
        put(ahead, new ControlElement.WatermarkElement(150));
        put(ahead, new ControlElement.WatermarkElement(400));
        put(behind, new ControlElement.WatermarkElement(99));
        assertThat(signal.wakeups()).as("the task's watermark is at most 99").isZero();
        put(behind, new ControlElement.WatermarkElement(100));
        assertThat(signal.wakeups()).as("both at 100 or above").isEqualTo(1);

        signal.wakeWatermark(500);
        signal.prepareWait();
        put(ahead, new ControlElement.WatermarkElement(600));
        assertThat(signal.wakeups()).isEqualTo(1);
        put(behind, ControlElement.IdleStatus.IDLE);
        assertThat(signal.wakeups()).as("an idleness change always wakes").isEqualTo(2);
        signal.prepareWait();
        put(ahead, new ControlElement.WatermarkElement(700));
        assertThat(signal.wakeups()).as("an idle channel holds nothing back").isEqualTo(3);

        signal.wakeWatermark(800);
        signal.prepareWait();
        put(behind, ControlElement.IdleStatus.ACTIVE);
        assertThat(signal.wakeups()).isEqualTo(4);
        signal.prepareWait();
        put(ahead, new ControlElement.WatermarkElement(900));
        assertThat(signal.wakeups()).as("active again at 100: holds the task back again").isEqualTo(4);
        put(behind, ControlElement.EndOfInput.INSTANCE);
        assertThat(signal.wakeups()).isEqualTo(5);
        signal.prepareWait();
        put(ahead, new ControlElement.WatermarkElement(1_000));
        assertThat(signal.wakeups()).as("an ended channel holds nothing back").isEqualTo(6);
    }

    @Test
    void watermarksGatherBeyondTheBound_andAProducerFindingTheChannelFullWakesTheConsumer() throws Exception {
        TaskSignal signal = new TaskSignal();
        Channel channel = new Channel("a", 0, "b", 0, 16, 2, 4, signal);
        signal.wakeWatermark(Long.MAX_VALUE);
        signal.prepareWait();
        long giveUp = System.nanoTime() + 2_000_000_000L;
        for (int i = 1; i <= 10; i++) {
            long waited = channel.put(new ControlElement.WatermarkElement(i), () -> System.nanoTime() > giveUp, Clock.system());
            assertThat(waited).as("watermark %d put without waiting", i).isZero();
        }
        assertThat(channel.size()).isEqualTo(10);
        assertThat(signal.wakeups()).isZero();
        assertThat(channel.writable()).as("beyond the bound of 2").isFalse();
        channel.awaitWritable(1_000_000);
        assertThat(signal.wakeups()).as("a source pausing for the channel wakes the consumer").isEqualTo(1);

        RecordBatch batch = channel.newBatch();
        batch.add("record", 11);
        AtomicLong waited = new AtomicLong(-2);
        Thread producer = new Thread(() -> waited.set(channel.put(batch, () -> false, Clock.system())));
        producer.start();
        Await.until("the producer wakes the consumer before waiting on the full channel", () -> signal.wakeups() == 2);
        assertThat(producer.isAlive()).isTrue();
        for (int i = 1; i <= 10; i++) {
            assertThat(((ControlElement.WatermarkElement) channel.poll()).watermark()).isEqualTo(i);
        }
        producer.join(10_000);
        assertThat(waited.get()).isPositive();
        assertThat(channel.poll()).isSameAs(batch);
    }
}
