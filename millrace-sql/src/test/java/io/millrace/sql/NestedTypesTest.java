package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rows with nested ROW and DECIMAL fields from the Java API into SQL and back, against a recomputation. */
class NestedTypesTest {
    static final RowType SENSOR = RowType.builder().field("line", FieldType.STRING).nullableField("slot", FieldType.INT).build();
    static final RowType READING = RowType.builder().field("sensor", SENSOR).decimalField("kwh", 12, 3, false)
            .field("ts", FieldType.TIMESTAMP).build();

    @Test
    void fromDataStream_nestedFieldsAndDecimalSums_perWindowAndLine() {
        Random random = new Random(21);
        List<Row> rows = new ArrayList<>();
        BigDecimal[][] expected = new BigDecimal[3][2];
        BigDecimal[][] peak = new BigDecimal[3][2];
        for (int i = 0; i < 3_000; i++) {
            int line = random.nextInt(2);
            BigDecimal kwh = BigDecimal.valueOf(random.nextInt(1_000_000), 3);
            long ts = 10L * i;
            rows.add(Row.of(READING, Row.of(SENSOR, "L" + line, random.nextBoolean() ? null : random.nextInt(8)), kwh, ts));
            int w = (int) (ts / 10_000);
            expected[w][line] = expected[w][line] == null ? kwh : expected[w][line].add(kwh);
            BigDecimal twice = kwh.multiply(BigDecimal.valueOf(2));
            peak[w][line] = peak[w][line] == null || twice.compareTo(peak[w][line]) > 0 ? twice : peak[w][line];
        }
        Pipeline p = Pipeline.create(PipelineConfig.defaults().parallelism(4));
        DataStream<Row> in = p.fromCollection(rows)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>monotonous().withTimestampAssigner((r, t) -> r.getTimestamp(2)));
        SqlSession sql = SqlSession.create();
        sql.fromDataStream("readings", in, READING, "ts");
        DataStream<Row> out = sql.toDataStream(p, "SELECT window_start, sensor.line, SUM(kwh) AS total, MAX(kwh * 2) AS peak2 "
                + "FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, sensor.line");
        CollectSink<Row> sink = new CollectSink<>();
        out.sinkTo(sink);
        p.execute("nested");
        List<String> results = new ArrayList<>(sink.results().stream().map(r -> r.getTimestamp(0) / 10_000 + " " + r.getString(1) + " "
                + r.getDecimal(2).toPlainString() + " " + r.getDecimal(3).toPlainString() + " " + r.type().typeName(2) + " " + r.type().typeName(3))
                .toList());
        results.sort(null);
        List<String> want = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            for (int line = 0; line < 2; line++) {
                // SUM of DECIMAL(12, 3) is DECIMAL(38, 3); kwh * 2 is DECIMAL(12 + 10, 3 + 0), and MAX keeps its type
                want.add(w + " L" + line + " " + expected[w][line].toPlainString() + " " + peak[w][line].toPlainString()
                        + " DECIMAL(38, 3) DECIMAL(22, 3)");
            }
        }
        want.sort(null);
        assertThat(results).containsExactlyElementsOf(want);
    }
}
