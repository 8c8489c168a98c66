package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.ConfigOption;
import io.millrace.api.ConfigOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/configuration.md equal to the option registry: the table between {@code <!-- options:begin -->}
 * and {@code <!-- options:end -->} has one row per registered option, in registry order, and its key,
 * default, accepted values and meaning are the registry's. The "in code" column is written by hand and must
 * not be empty. On failure the message shows the rows as they should be.
 */
class ConfigurationDocTest {
    private static final String BEGIN = "<!-- options:begin -->";
    private static final String END = "<!-- options:end -->";

    @Test
    void optionTable_listsEveryRegisteredOptionAsTheRegistryDescribesIt() throws IOException {
        String doc = Files.readString(DocSnippetsTest.repoRoot().resolve("docs/configuration.md"));
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("markers in docs/configuration.md").isNotNegative().isLessThan(end);
        List<String[]> rows = doc.substring(begin + BEGIN.length(), end).lines()
                .filter(l -> l.startsWith("| `"))
                .map(l -> l.substring(1, l.length() - 1).split("\\|", -1))
                .toList();

        Map<String, String> inCode = new LinkedHashMap<>();
        for (String[] cells : rows) {
            inCode.put(cells[0].strip(), cells.length > 3 ? cells[3].strip() : "");
        }
        String expected = ConfigOptions.all().stream()
                .map(o -> row(o, inCode.getOrDefault("`" + o.key() + "`", "")))
                .collect(Collectors.joining("\n"));
        String actual = rows.stream().map(c -> "|" + String.join("|", c) + "|").collect(Collectors.joining("\n"));

        assertThat(actual).as("option rows of docs/configuration.md; they should be:%n%s%n", expected).isEqualTo(expected);
        assertThat(inCode).as("the 'in code' column").allSatisfy((key, code) -> assertThat(code).as(key).isNotBlank());
    }

    private static String row(ConfigOption<?> o, String inCode) {
        return "| `" + o.key() + "` | " + o.defaultText() + " | " + o.accepted() + " | " + inCode + " | " + o.description() + " |";
    }
}
