package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sql.connector.TableConnector;
import io.millrace.sql.runtime.CalcFunction;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.RowProjector;
import io.millrace.sql.runtime.RowtimeWatermarks;
import java.util.List;

/**
 * Reads a connector table: the connector's physical rows, then its computed columns (if any), then timestamps and
 * watermarks from the event-time attribute (if it has a WATERMARK). Emits the changes its connector reads: inserts
 * only, or a changelog (an {@code upsert-kafka} table).
 */
public final class SourceScan extends PhysicalNode {
    private final String table;
    private final TableConnector.Opened connector;
    private final RowProjector computed;
    private final String rowtimeName;
    private final Expr rowtimeExpr;
    private final Expr watermark;
    private final String watermarkText;

    /**
     * {@code computed} null when the table has no computed columns; {@code watermark} null without WATERMARK. The
     * event time ({@code rowtimeExpr}) and the watermark expression are compiled over the physical rows, so that
     * the source applies them per split.
     */
    public SourceScan(String table, TableConnector.Opened connector, RowType rowType, RowProjector computed, int rowtime, Expr rowtimeExpr,
            Expr watermark, String watermarkText) {
        super(rowType, rowtime);
        this.rowtimeExpr = rowtimeExpr;
        this.table = table;
        this.connector = connector;
        this.computed = computed;
        this.rowtimeName = rowtime >= 0 ? rowType.name(rowtime) : null;
        this.watermark = watermark;
        this.watermarkText = watermarkText;
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of();
    }

    @Override
    public String kind() {
        return "TableSourceScan";
    }

    @Override
    public ChangelogMode changelogMode() {
        return ChangelogMode.of(connector.changelogKinds());
    }

    @Override
    public String reuseKey() {
        return "scan:" + table;
    }

    @Override
    public String details() {
        return "table=[" + table + "], connector=[" + connector.describe() + "]"
                + (watermark == null ? "" : ", watermark=[" + rowtimeName + ", " + watermarkText + "]");
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        WatermarkStrategy<Row> strategy = watermark == null ? WatermarkStrategy.noWatermarks()
                : RowtimeWatermarks.strategy(rowtimeExpr, rowtimeName, watermark);
        DataStream<Row> s = connector.source(t.pipeline(), table, strategy);
        if (s == null) {
            throw new IllegalStateException("connector of table '" + table + "' cannot be read");
        }
        s.uid(t.nextUid("source"));
        if (computed != null) {
            s = t.name(s.flatMap(new CalcFunction(null, computed)), "computed", table + ": computed columns");
        }
        return s;
    }
}
