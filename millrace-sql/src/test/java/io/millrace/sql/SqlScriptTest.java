package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the SQL test scripts in {@code src/test/resources/sql}, each at parallelism 1 and 4. The format is described
 * in {@code src/test/resources/sql/README.md}: blocks separated by blank lines, each one of {@code data <file>},
 * {@code statement ok}, {@code query [ordered]} with its expected rows after {@code ----}, and {@code error} with the
 * expected message part after {@code ----}.
 */
class SqlScriptTest {
    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> sqlScripts() throws IOException {
        Path dir = Path.of("src/test/resources/sql");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        return files.stream().flatMap(f -> Stream.of(1, 4).map(p -> DynamicTest.dynamicTest(f.getFileName() + " at parallelism " + p,
                () -> run(f, p))));
    }

    private void run(Path file, int parallelism) throws IOException {
        Path data = Files.createTempDirectory(temp, file.getFileName().toString().replace(".sql", "") + "-p" + parallelism);
        SqlSession session = SqlSession.create(PipelineConfig.defaults().parallelism(parallelism));
        List<String> lines = Files.readAllLines(file);
        int i = 0;
        while (i < lines.size()) {
            String head = lines.get(i).strip();
            if (head.isEmpty() || head.startsWith("#")) {
                i++;
                continue;
            }
            int blockLine = i + 1;
            List<String> body = new ArrayList<>();
            i++;
            while (i < lines.size() && !lines.get(i).isBlank()) {
                body.add(lines.get(i));
                i++;
            }
            String where = file.getFileName() + ":" + blockLine + " (parallelism " + parallelism + ")";
            runBlock(session, head, body, data, where);
        }
    }

    private static void runBlock(SqlSession session, String head, List<String> body, Path data, String where) throws IOException {
        if (head.startsWith("data ")) {
            Files.write(data.resolve(head.substring(5).strip()), body);
            return;
        }
        int sep = body.indexOf("----");
        String sql = String.join("\n", sep < 0 ? body : body.subList(0, sep)).replace("${data}", data.toString());
        List<String> expected = sep < 0 ? List.of() : body.subList(sep + 1, body.size());
        switch (head.split("\\s+")[0]) {
            case "statement" -> session.executeScript(sql);
            case "query" -> {
                List<String> actual = new ArrayList<>(session.query(sql).stream().map(Row::toString).toList());
                List<String> want = new ArrayList<>(expected);
                if (!head.contains("ordered")) {
                    actual.sort(null);
                    want.sort(null);
                }
                assertThat(actual).as(where).containsExactlyElementsOf(want);
            }
            case "error" -> assertThatThrownBy(() -> session.executeScript(sql)).as(where).isInstanceOf(SqlException.class)
                    .hasMessageContaining(String.join("\n", expected));
            default -> throw new IllegalArgumentException(where + ": unknown block '" + head + "'");
        }
    }
}
