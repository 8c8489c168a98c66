package io.millrace.connector.jdbc;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The job the CDC crash loop kills: the changes of table {@code items} from {@link PostgresCdcSource}, as lines, into
 * core's exactly-once file sink under {@code <dir>/out}, checkpointed every 100 ms to {@code <dir>/checkpoints}, from
 * which it resumes by itself. Run as {@code CdcCrashLoopJob <dir> <url> <slot> [<endAfterLsn>]}; with an LSN it ends
 * after the transaction that commits after it and prints FINISHED.
 */
public final class CdcCrashLoopJob {
    private CdcCrashLoopJob() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        PostgresCdcSource.Builder source = PostgresCdcSource.builder().url(args[1]).user("millrace").table("items").slot(args[2])
                .statusInterval(Duration.ofSeconds(1));
        if (args.length > 3) {
            source.endAfter(args[3]);
        }
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(100));
        Pipeline p = Pipeline.create(config);
        p.fromSource(source.build(), WatermarkStrategy.<Row>noWatermarks(), "items").uid("items")
                .map(CdcChangelog::line).uid("lines")
                .sinkTo(TransactionalFileSink.of(dir.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("out");
        p.execute("cdc crash loop");
        System.out.println("FINISHED");
    }
}
