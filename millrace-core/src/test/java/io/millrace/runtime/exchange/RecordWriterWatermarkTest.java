package io.millrace.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.plan.Partitioning;
import io.millrace.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordWriterWatermarkTest {
    private static final long INTERVAL_NANOS = 1_000_000L;

    private final ManualClock clock = new ManualClock(1_000);

    private Channel[] channels(int n, int capacity, int batchSize) {
        Channel[] chs = new Channel[n];
        for (int i = 0; i < n; i++) {
            chs[i] = new Channel("from", 0, "to", i, capacity, batchSize, new TaskSignal());
        }
        return chs;
    }

    private RecordWriter writer(Channel[] chs, long intervalNanos) {
        return new RecordWriter("edge", chs, Partitioning.REBALANCE, null, 128, 0, () -> false, clock, intervalNanos);
    }

    /** What a consumer sees on one channel: records (as their values) and watermarks, in order. */
    private static List<Object> drain(Channel ch) {
        List<Object> seen = new ArrayList<>();
        Object e;
        while ((e = ch.poll()) != null) {
            if (e instanceof RecordBatch b) {
                for (int i = 0; i < b.size(); i++) {
                    seen.add(b.value(i));
                }
                ch.recycle(b);
            } else {
                seen.add(e);
            }
        }
        return seen;
    }

    @Test
    void whenWatermarksFollowEachOtherWithinTheInterval_thenOnlyTheFirstGoesOutUntilTheNextFlush() {
        Channel[] chs = channels(1, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emit("a", 1);
        w.emitWatermark(1);
        w.emit("b", 2);
        w.emitWatermark(2);
        w.emitWatermark(3);

        assertThat(drain(chs[0])).containsExactly("a", new ControlElement.WatermarkElement(1));
        assertThat(w.sentWatermark()).isEqualTo(1);

        w.flush();
        assertThat(drain(chs[0])).containsExactly("b", new ControlElement.WatermarkElement(3));
    }

    @Test
    void whenRecordsComeOutWhileAWatermarkPassesTheChain_thenItGoesOutAtOnceWithThem() {
        Channel[] chs = channels(2, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        drain(chs[0]);
        drain(chs[1]);
        w.emit("record", 5);
        w.emitWatermark(5);
        assertThat(drain(chs[0])).as("an ordinary watermark within the interval is held back").isEmpty();

        w.watermarkStarts();
        w.emit("window result", 9);
        w.emit("another result", 9);
        w.emitWatermark(10);

        // the clock has not moved: the watermark went out because it released the results before it
        List<Object> all = new ArrayList<>(drain(chs[0]));
        all.addAll(drain(chs[1]));
        assertThat(all).containsExactlyInAnyOrder("record", "window result", "another result",
                new ControlElement.WatermarkElement(10), new ControlElement.WatermarkElement(10));
        assertThat(w.sentWatermark()).isEqualTo(10);
    }

    @Test
    void whenAWatermarkPassesTheChainWithoutReleasingRecords_thenItIsHeldBackAsUsual() {
        Channel[] chs = channels(1, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        drain(chs[0]);
        w.emit("before the mark", 3);
        w.watermarkStarts();
        w.emitWatermark(4);
        assertThat(drain(chs[0])).as("records appended before the mark were not released by the watermark").isEmpty();

        w.emit("between watermarks", 5);
        w.emitWatermark(6);
        assertThat(drain(chs[0])).as("a mark counts for one watermark only").isEmpty();
        assertThat(w.sentWatermark()).isEqualTo(1);

        w.flush();
        assertThat(drain(chs[0])).containsExactly("before the mark", "between watermarks", new ControlElement.WatermarkElement(6));
    }

    @Test
    void whenTheIntervalPasses_thenTheNextWatermarkGoesOutWithThePartialBatches() {
        Channel[] chs = channels(1, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        drain(chs[0]);
        w.emit("a", 5);
        w.emitWatermark(5);
        assertThat(drain(chs[0])).isEmpty();

        clock.advance(Duration.ofMillis(1));
        w.emitWatermark(6);

        assertThat(drain(chs[0])).containsExactly("a", new ControlElement.WatermarkElement(6));
    }

    @Test
    void beforeWaiting_aWatermarkAloneStaysHeldUntilItsIntervalPasses_andTheWaitEndsThen() {
        Channel[] chs = channels(2, 64, 8);
        RecordWriter w = writer(chs, 5 * INTERVAL_NANOS);
        w.emitWatermark(1);
        drain(chs[0]);
        drain(chs[1]);
        clock.advance(Duration.ofMillis(2));
        w.emitWatermark(2);

        assertThat(w.flushBeforeWaiting(clock.nanoTime())).as("nanoseconds until the held watermark is due").isEqualTo(3_000_000);
        assertThat(drain(chs[0])).as("no consumer is woken for a watermark alone within the interval").isEmpty();
        assertThat(drain(chs[1])).isEmpty();

        clock.advance(Duration.ofMillis(3));
        assertThat(w.flushBeforeWaiting(clock.nanoTime())).isEqualTo(Long.MAX_VALUE);
        assertThat(drain(chs[0])).containsExactly(new ControlElement.WatermarkElement(2));
        assertThat(drain(chs[1])).containsExactly(new ControlElement.WatermarkElement(2));
        assertThat(w.flushBeforeWaiting(clock.nanoTime())).as("nothing held any more").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void beforeWaiting_partialBatchesGoOut_andTheHeldWatermarkWithThem() {
        Channel[] chs = channels(2, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        drain(chs[0]);
        drain(chs[1]);
        w.emit("a", 4);
        w.emitWatermark(4);
        assertThat(drain(chs[0])).isEmpty();

        assertThat(w.flushBeforeWaiting(clock.nanoTime())).isEqualTo(Long.MAX_VALUE);
        List<Object> all = new ArrayList<>(drain(chs[0]));
        all.addAll(drain(chs[1]));
        assertThat(all).as("the consumers are woken for the batch anyway: the watermark rides along")
                .containsExactlyInAnyOrder("a", new ControlElement.WatermarkElement(4), new ControlElement.WatermarkElement(4));
        assertThat(w.sentWatermark()).isEqualTo(4);
    }

    @Test
    void whenAControlElementFollows_thenTheHeldBackWatermarkPrecedesIt() {
        Channel[] chs = channels(2, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        w.emitWatermark(7);
        drain(chs[0]);
        drain(chs[1]);

        w.broadcastControl(ControlElement.EndOfInput.INSTANCE);

        for (Channel ch : chs) {
            assertThat(drain(ch)).containsExactly(new ControlElement.WatermarkElement(7), ControlElement.EndOfInput.INSTANCE);
        }
    }

    @Test
    void whenTheFinalWatermarkArrives_thenItGoesOutAtOnce() {
        Channel[] chs = channels(1, 64, 8);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        w.emit("a", 2);
        w.emitWatermark(Long.MAX_VALUE);

        assertThat(drain(chs[0])).containsExactly(new ControlElement.WatermarkElement(1), "a",
                new ControlElement.WatermarkElement(Long.MAX_VALUE));
    }

    @Test
    void whenTheClockStandsStill_thenAFewFullBatchesPerChannelReleaseTheWatermark() {
        Channel[] chs = channels(1, 64, 4);
        RecordWriter w = writer(chs, INTERVAL_NANOS);
        w.emitWatermark(1);
        drain(chs[0]);
        int records = 4 * RecordWriter.WATERMARK_BATCHES_PER_CHANNEL;
        for (int i = 0; i < records; i++) {
            w.emit(i, 10);
        }
        w.emitWatermark(10);

        List<Object> seen = drain(chs[0]);
        assertThat(seen).hasSize(records + 1).last().isEqualTo(new ControlElement.WatermarkElement(10));
    }

    @Test
    void withoutAnInterval_everyRisingWatermarkGoesOutAtOnce() {
        Channel[] chs = channels(1, 64, 8);
        RecordWriter w = writer(chs, 0);
        w.emitWatermark(1);
        w.emitWatermark(1);
        w.emitWatermark(2);

        assertThat(drain(chs[0])).containsExactly(new ControlElement.WatermarkElement(1), new ControlElement.WatermarkElement(2));
    }

    /**
     * Seeded random emits, watermarks, clock moves, flushes and barriers against a model of what a consumer may
     * see: on every channel records keep their order, watermarks rise strictly, each watermark sent is one that
     * was emitted and comes after every record emitted before it, and after a flush the newest watermark is there.
     */
    @Test
    void randomInterleavings_keepRecordsInOrderAndNeverSendAWatermarkAheadOfItsRecords() {
        Random random = new Random(42);
        for (int run = 0; run < 50; run++) {
            int n = 1 + random.nextInt(3);
            Channel[] chs = channels(n, 1 << 16, 1 + random.nextInt(6));
            RecordWriter w = new RecordWriter("edge", chs, Partitioning.BROADCAST, null, 128, 0, () -> false, clock, INTERVAL_NANOS);
            List<Object> model = new ArrayList<>(); // everything emitted, in order: Integer records, Long watermarks
            long watermark = 0;
            int record = 0;
            for (int step = 0; step < 300; step++) {
                int op = random.nextInt(10);
                if (op < 6) {
                    w.emit(record, watermark);
                    model.add(record++);
                } else if (op < 8) {
                    watermark += random.nextInt(3);
                    w.emitWatermark(watermark);
                    model.add(watermark);
                } else if (op == 8) {
                    clock.advance(Duration.ofMillis(random.nextInt(2)));
                } else {
                    w.flush();
                }
            }
            w.flush();
            for (Channel ch : chs) {
                List<Object> seen = drain(ch);
                List<Integer> records = new ArrayList<>();
                long last = Long.MIN_VALUE;
                for (Object e : seen) {
                    if (e instanceof Integer r) {
                        records.add(r);
                    } else {
                        long wm = ((ControlElement.WatermarkElement) e).watermark();
                        assertThat(wm).isGreaterThan(last);
                        last = wm;
                        int emittedAt = model.indexOf(wm);
                        long recordsBefore = model.subList(0, emittedAt).stream().filter(x -> x instanceof Integer).count();
                        assertThat(records.size()).isGreaterThanOrEqualTo((int) recordsBefore);
                    }
                }
                assertThat(records).hasSize(record);
                for (int i = 0; i < record; i++) {
                    assertThat(records.get(i)).isEqualTo(i);
                }
                assertThat(last).isEqualTo(watermark == 0 && !model.contains(0L) ? Long.MIN_VALUE : watermark);
            }
        }
    }
}
