package io.millrace.api.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobExecutionException;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.sink.CollectSink;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Refusals and names of the temporal and changelog join APIs, and a row without a timestamp. */
class TableJoinApiTest {
    @Test
    void stateRetention_ofZeroOrNegative_isRefusedNamingTheSide() {
        Pipeline p = Pipeline.create();
        ChangelogJoin<Long> join = ChangelogJoin.of(p.fromElements(ChangelogJoinOperatorTest.side(RowKind.INSERT, "a", 1, 1)).keyBy(r -> r.getLong("k")),
                p.fromElements(ChangelogJoinOperatorTest.side(RowKind.INSERT, "x", 1, 1)).keyBy(r -> r.getLong("k")));
        assertThatThrownBy(() -> join.stateRetention(Duration.ZERO, Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("left state retention");
        assertThatThrownBy(() -> join.stateRetention(Duration.ofHours(1), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("right state retention");
        assertThat(join.stateRetention(null, Duration.ofMillis(1))).isNotNull();
    }

    @Test
    void joinsOfStreamsOfDifferentPipelines_areRefused() {
        Pipeline p = Pipeline.create();
        Pipeline q = Pipeline.create();
        assertThatThrownBy(() -> ChangelogJoin.of(p.fromElements(1L).map(i -> (Row) null).keyBy(r -> 1L), q.fromElements(1L).map(i -> (Row) null).keyBy(r -> 1L))
                .inner(ChangelogJoins.JOIN)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different pipelines");
        assertThatThrownBy(() -> TemporalJoin.of(p.fromElements(1L).keyBy(i -> i), q.fromElements(1L).map(i -> (Row) null).keyBy(r -> 1L))
                .inner((a, b) -> a)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different pipelines");
    }

    @Test
    void aProbeRowWithoutEventTimestamp_failsTheJobNamingTheRowAndWhatToDo() {
        Pipeline p = Pipeline.create();
        DataStream<String> joined = TemporalJoin.of(p.fromElements("m1").keyBy(s -> s),
                p.fromElements(TemporalJoinOperatorTest.config(RowKind.INSERT, "m1", 1)).keyBy(r -> r.getString("machine")))
                .leftOuter((s, v) -> s);
        joined.sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> p.execute("no timestamps")).isInstanceOf(JobExecutionException.class)
                .hasStackTraceContaining("temporal join: a").hasStackTraceContaining("has no event timestamp")
                .hasStackTraceContaining("WatermarkStrategy");
    }
}
