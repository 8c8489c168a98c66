package io.millrace.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EmissionQueueTest {

    private static SpindleEvent event(long slot) {
        return new SpindleEvent("M001", SpindleState.RUNNING, slot, slot);
    }

    /** Drives a queue the way a cursor does: slots in time order, emitting what is due before each slot. */
    private static List<FactoryEvent> run(EmissionQueue queue, long seed, long maxDelay) {
        Random random = new Random(seed);
        List<FactoryEvent> out = new ArrayList<>();
        long time = 1_000_000;
        for (long slot = 0; slot < 20_000; slot++) {
            time += random.nextInt(random.nextInt(10) == 0 ? 40 : 3);
            while (!queue.isEmpty() && queue.firstEmitAt() <= time) {
                out.add(queue.poll());
            }
            queue.advanceTo(time);
            if (random.nextInt(5) > 0) {
                queue.add(time + (long) (random.nextDouble() * (maxDelay + 1)), slot, event(slot));
            }
        }
        while (!queue.isEmpty()) {
            out.add(queue.poll());
        }
        return out;
    }

    @Test
    void wheelAndHeapEmitInTheSameOrderForRandomDelays() {
        for (long seed = 0; seed < 10; seed++) {
            long maxDelay = new Random(seed).nextInt(2_000);
            List<FactoryEvent> heap = run(new EmissionHeap(), seed, maxDelay);
            List<FactoryEvent> wheel = run(new EmissionWheel(maxDelay), seed, maxDelay);
            assertThat(wheel).hasSizeGreaterThan(15_000).isEqualTo(heap);
        }
    }

    @Test
    void heapOrdersByEmissionTimeThenSlot() {
        EmissionHeap heap = new EmissionHeap();
        heap.add(50, 1, event(1));
        heap.add(10, 2, event(2));
        heap.add(50, 0, event(0));
        heap.add(10, 3, event(3));
        List<Long> order = new ArrayList<>();
        while (!heap.isEmpty()) {
            order.add(heap.firstSlot());
            heap.poll();
        }
        assertThat(order).containsExactly(2L, 3L, 0L, 1L);
    }

    @Test
    void wheelRejectsAnEventOutsideItsSpan() {
        EmissionWheel wheel = new EmissionWheel(100);
        assertThatThrownBy(() -> wheel.add(5, 0, event(0))).isInstanceOf(IllegalStateException.class);
        wheel.advanceTo(1_000);
        wheel.add(1_100, 1, event(1));
        assertThatThrownBy(() -> wheel.add(999, 2, event(2))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> wheel.add(1_000_000, 3, event(3))).isInstanceOf(IllegalStateException.class);
        assertThat(wheel.poll()).isEqualTo(event(1));
    }
}
