package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the examples of docs/sql.md: every {@code sql} block marked {@code <!-- sql-example -->} runs as a script,
 * and a {@code text} block marked {@code <!-- sql-result -->} right after it holds the rows of its last query. The
 * Java snippet of the page is the region {@code session} below (checked by core's DocSnippetsTest).
 */
class SqlDocsTest {
    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- sql-example -->\\s*\\n```sql\\n(.*?)\\n```(\\s*<!-- sql-result -->\\s*\\n```text\\n(.*?)\\n```)?", Pattern.DOTALL);

    private static Path docs() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs/sql.md"))) {
            p = p.getParent();
        }
        return p.resolve("docs/sql.md");
    }

    @Test
    void everySqlExampleInTheDocs_runs_andGivesTheRowsShown() throws IOException {
        Matcher m = EXAMPLE.matcher(Files.readString(docs()));
        int examples = 0;
        int withResults = 0;
        while (m.find()) {
            examples++;
            SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(2));
            List<StatementResult> results = sql.executeScript(m.group(1));
            if (m.group(3) != null) {
                withResults++;
                List<String> actual = new ArrayList<>(results.get(results.size() - 1).rows().stream().map(Row::toString).toList());
                List<String> expected = new ArrayList<>(m.group(3).lines().toList());
                actual.sort(null);
                expected.sort(null);
                assertThat(actual).as("example " + examples).containsExactlyElementsOf(expected);
            }
        }
        assertThat(examples).isGreaterThanOrEqualTo(3);
        assertThat(withResults).isPositive();
    }

    @Test
    void sessionExample_sumsEachHalfSecond() {
        // tag::session[]
        SqlSession sql = SqlSession.create(new PipelineConfig().parallelism(4));
        sql.executeScript("""
                CREATE TABLE numbers (n BIGINT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts)
                WITH ('connector' = 'datagen', 'number-of-rows' = '1000', 'rows-per-second' = '1000',
                      'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000');
                """);
        List<Row> sums = sql.query("""
                SELECT window_start, SUM(n) AS total
                FROM TABLE(TUMBLE(TABLE numbers, DESCRIPTOR(ts), INTERVAL '0.5' SECOND))
                GROUP BY window_start, window_end
                """);
        // end::session[]
        assertThat(sums).extracting(r -> r.getLong(1)).containsExactlyInAnyOrder(125_250L, 375_250L);
    }
}
