package io.millrace.connector.jdbc;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The job the PostgreSQL crash loop and outage tests run: numbers 0 to {@code events - 1} from a replayable generator,
 * written twice. As they are, to the table {@code events} (no key) by the exactly-once append sink. And keyed by
 * {@code n % KEYS}, counted in keyed state: the {@code c}-th number of key {@code k} inserts the row
 * {@code (k * 1,000,000 + c, k, c)} into the table {@code counts} (primary key {@code id}) and deletes the row of
 * count {@code c - 3}, through the upsert sink; at the end each key has the rows of its last three counts. Run as
 * {@code PostgresCrashLoopJob <url> <dir> <events> <ratePerSecond, 0 for unlimited> [<restarts> <retryTimeoutMillis>]};
 * it resumes from the checkpoints in {@code <dir>/checkpoints} by itself and prints FINISHED at the end.
 */
public final class PostgresCrashLoopJob {
    static final int KEYS = 20;
    static final RowType EVENT = RowType.builder().field("n", FieldType.BIGINT).field("k", FieldType.INT).build();
    static final RowType COUNT = RowType.builder().field("id", FieldType.BIGINT).field("k", FieldType.INT).field("c", FieldType.BIGINT).build();
    static final String CREATE_TABLES = "CREATE TABLE events (n bigint NOT NULL, k integer NOT NULL);"
            + " CREATE TABLE counts (id bigint PRIMARY KEY, k integer NOT NULL, c bigint NOT NULL)";

    private PostgresCrashLoopJob() {}

    /** Counts the numbers of each key; emits the count's row and the delete of the row three counts back. */
    static final class Counts extends KeyedProcessFunction<Integer, Long, Row> {
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Long n, Context<Integer> ctx, Collector<Row> out) {
            Long c = count.value();
            long next = c == null ? 1 : c + 1;
            count.update(next);
            int k = ctx.currentKey();
            out.collect(Row.of(COUNT, k * 1_000_000L + next, k, next));
            if (next > 3) {
                out.collect(Row.ofKind(RowKind.DELETE, COUNT, k * 1_000_000L + next - 3, k, next - 3));
            }
        }
    }

    /** The pipeline, without executing it. */
    static Pipeline pipeline(String url, Path dir, long events, double rate, RestartStrategy restarts, Duration retryTimeout) {
        PipelineConfig config = new PipelineConfig().parallelism(2).restartStrategy(restarts);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        GeneratorSource.Builder<Long> generator = GeneratorSource.builder(i -> i).count(events);
        var numbers = p.fromSource(rate > 0 ? generator.ratePerSecond(rate).build() : generator.unlimitedRate().build(),
                WatermarkStrategy.<Long>noWatermarks(), "numbers").uid("numbers");
        numbers.map(n -> Row.of(EVENT, n, (int) (n % KEYS))).uid("events")
                .sinkTo(PostgresSink.builder(Columns.of(EVENT)).url(url).user("millrace").table("events")
                        .exactlyOnceAppend("crash-events").batchSize(200).retryTimeout(retryTimeout)
                        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).build())
                .uid("events-sink").name("events-sink");
        numbers.keyBy(n -> (int) (n % KEYS)).process(new Counts()).uid("counts")
                .sinkTo(PostgresSink.builder(Columns.of(COUNT)).url(url).user("millrace").table("counts").upsert("id")
                        .batchSize(200).retryTimeout(retryTimeout).retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).build())
                .uid("counts-sink").name("counts-sink");
        return p;
    }

    public static void main(String[] args) {
        String url = args[0];
        Path dir = Path.of(args[1]);
        long events = Long.parseLong(args[2]);
        double rate = Double.parseDouble(args[3]);
        RestartStrategy restarts = args.length > 4 ? RestartStrategy.fixedDelay(Integer.parseInt(args[4]), Duration.ofMillis(200))
                : RestartStrategy.none();
        Duration retryTimeout = args.length > 5 ? Duration.ofMillis(Long.parseLong(args[5])) : Duration.ofSeconds(60);
        pipeline(url, dir, events, rate, restarts, retryTimeout).execute("postgres crash loop");
        System.out.println("FINISHED");
    }
}
