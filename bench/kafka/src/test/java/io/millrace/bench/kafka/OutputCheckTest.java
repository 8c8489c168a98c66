package io.millrace.bench.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class OutputCheckTest {
    static final long RECORDS = 20_000;

    private static ConsumerRecord<byte[], byte[]> record(byte[] key, byte[] value) {
        return new ConsumerRecord<>("out", 0, 0, key, value);
    }

    private static List<ConsumerRecord<byte[], byte[]>> passThroughOutput() {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (long i = 0; i < RECORDS; i++) {
            out.add(record(Readings.key(i), Readings.value(i)));
        }
        return out;
    }

    @Test
    void whenEveryReadingComesOnceInOrderPerMachine_thenThePassThroughIsCorrect_whateverTheInterleavingOfMachines() {
        List<ConsumerRecord<byte[], byte[]>> out = passThroughOutput();
        // reorder across machines only: a stable sort by a random rank per machine keeps each machine's order
        Random random = new Random(7);
        int[] rank = new int[Readings.MACHINES];
        for (int m = 0; m < rank.length; m++) {
            rank[m] = random.nextInt(4);
        }
        out.sort((a, b) -> Integer.compare(rank[Readings.machineOf(a.key())], rank[Readings.machineOf(b.key())]));
        OutputCheck check = new OutputCheck.PassThrough(RECORDS);
        out.forEach(check::accept);
        check.accept(record(Readings.END_KEY.getBytes(StandardCharsets.UTF_8), "-1,0".getBytes(StandardCharsets.UTF_8)));
        assertThat(check.correct()).isTrue();
    }

    @Test
    void whenAReadingComesTwice_orTwoOfAMachineSwap_thenThePassThroughIsWrong() {
        List<ConsumerRecord<byte[], byte[]>> out = passThroughOutput();
        OutputCheck dup = new OutputCheck.PassThrough(RECORDS);
        out.forEach(dup::accept);
        dup.accept(out.get(1234));
        assertThat(dup.correct()).isFalse();
        assertThat(dup.firstWrong).contains("duplicate");

        List<ConsumerRecord<byte[], byte[]>> swapped = new ArrayList<>(out);
        swapped.set(5, out.get(5 + Readings.MACHINES));
        swapped.set(5 + Readings.MACHINES, out.get(5));
        OutputCheck order = new OutputCheck.PassThrough(RECORDS);
        swapped.forEach(order::accept);
        assertThat(order.complete()).isFalse();
        assertThat(order.wrong).isPositive();
    }

    @Test
    void countsOfEveryMachineAndWindowOnce_areCorrect_andAWrongOrRepeatedCountIsNot() {
        long base = Readings.base(RECORDS * 60, System.currentTimeMillis());   // several windows
        long records = RECORDS * 60;
        long[][] counts = new long[(int) ((Readings.time(base, records - 1) - base) / KafkaJob.WINDOW_MS + 1)][Readings.MACHINES];
        for (long i = 0; i < records; i++) {
            counts[(int) ((Readings.time(base, i) - base) / KafkaJob.WINDOW_MS)][(int) (i % Readings.MACHINES)]++;
        }
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int w = 0; w < counts.length; w++) {
            for (int m = 0; m < Readings.MACHINES; m++) {
                if (counts[w][m] > 0) {
                    out.add(record(Readings.key(m), KafkaJob.countValue(base + w * KafkaJob.WINDOW_MS, counts[w][m])));
                }
            }
        }
        assertThat(counts.length).isGreaterThan(1);
        OutputCheck right = new OutputCheck.Counts(records, base);
        out.forEach(right::accept);
        assertThat(right.correct()).isTrue();

        OutputCheck repeated = new OutputCheck.Counts(records, base);
        out.forEach(repeated::accept);
        repeated.accept(out.get(0));
        assertThat(repeated.correct()).isFalse();

        OutputCheck off = new OutputCheck.Counts(records, base);
        out.subList(1, out.size()).forEach(off::accept);
        off.accept(record(Readings.key(0), KafkaJob.countValue(base, counts[0][0] + 1)));
        assertThat(off.complete()).isFalse();
        assertThat(off.firstWrong).contains("wrong count");
    }
}
