package io.millrace.bench.workload.handwritten;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Probe;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Recompute;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The hand-written pipeline computes what the engines compute: its results over an input equal a batch
 * recomputation's, with two sources and two window threads, as fast as it goes and paced.
 */
class HandWrittenEngineTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q0", "Q1", "Q2", "Q5", "Q7", "SLIDING"})
    void resultsEqualABatchRecomputation(Query q) throws Exception {
        // event time slow enough for many windows: q5 and q7 close 20 windows or more, sliding 12 per sensor
        long events = q == Query.SLIDING ? 30_000 : 200_000;
        long eventRate = q == Query.SLIDING ? 2_000 : 1_000;
        assertSameAsRecomputation(q, events, eventRate, 0);
    }

    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q5", "Q7", "SLIDING"})
    void pacedRun_sameResults_andTheWatermarksCloseWindowsBeforeTheEnd(Query q) throws Exception {
        // 60,000 events at 200,000 per second: the sources wait, send partial batches, and windows fire on the way
        assertSameAsRecomputation(q, 60_000, q == Query.SLIDING ? 2_000 : 1_000, 200_000);
    }

    private void assertSameAsRecomputation(Query q, long events, long eventRate, double rate) throws Exception {
        BenchOptions o = BenchOptions.parse("--query", q.id(), "--parallelism", "2");
        Input input = new Input(q, events, o.parallelism, o.seed, eventRate);
        Probe.reset(q, BenchOptions.BASE_TIME);
        List<Object> results = Collections.synchronizedList(new ArrayList<>());
        new HandWrittenEngine(results::add).run(o, input, rate, dir);

        List<String> expected = Recompute.expected(q, input);
        assertThat(expected).as("the input yields results").hasSizeGreaterThan(q == Query.Q5 || q == Query.Q7 ? 5 : 100);
        assertThat(Recompute.sorted(results)).isEqualTo(expected);
        Probe.RunFigures figures = Probe.collect();
        assertThat(figures.results()).as("every result counted by the tallies").isEqualTo(expected.size());
        assertThat(figures.lastResultNanos()).as("the last result's time is known").isGreaterThanOrEqualTo(figures.firstEventNanos());
    }

    @Test
    void aQueryNotWrittenByHand_isRefusedNamingTheOnesThatAre() {
        BenchOptions o = BenchOptions.parse("--query", "q3", "--parallelism", "2");
        Input input = new Input(Query.Q3, 1_000, 2, o.seed, 1_000);
        assertThatThrownBy(() -> new HandWrittenEngine().run(o, input, 0, dir))
                .hasMessageContaining("q3 is not written by hand").hasMessageContaining("q0, q1, q2, q5, q7, sliding");
    }

    @Test
    void partition_spreadsKeysOverTheWindowThreads() {
        int[] counts = new int[2];
        for (long key = 1000; key < 11_000; key++) {
            counts[SourceWorker.partition(key, 2)]++;
        }
        assertThat(counts[0]).isBetween(4_500, 5_500);
    }
}
