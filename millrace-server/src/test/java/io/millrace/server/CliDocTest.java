package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Keeps docs/cli.md complete: every command and every option of each command is documented, and nothing else. */
class CliDocTest {
    private static final Pattern OPTION_ROW = Pattern.compile("^\\| `(-[-\\w]+)`", Pattern.MULTILINE);

    @Test
    void cliDoc_documentsEveryCommandAndOption() throws IOException {
        String doc = Files.readString(repoRoot().resolve("docs/cli.md"));
        CommandLine cli = Main.commandLine();
        List<String> sections = new ArrayList<>(List.of(doc.split("\n## ")));
        for (var sub : cli.getSubcommands().entrySet()) {
            String name = sub.getKey();
            String section = sections.stream().filter(s -> s.startsWith("`millrace " + name + "`")).findFirst().orElse("");
            assertThat(section).as("section '## `millrace %s`' in docs/cli.md", name).isNotEmpty();

            List<String> documented = new ArrayList<>();
            Matcher m = OPTION_ROW.matcher(section);
            while (m.find()) {
                documented.add(m.group(1));
            }
            List<String> actual = sub.getValue().getCommandSpec().options().stream()
                    .filter(o -> !o.usageHelp() && !o.versionHelp())
                    .map(OptionSpec::longestName)
                    .toList();
            assertThat(documented).as("options of 'millrace %s' in docs/cli.md", name).containsExactlyInAnyOrderElementsOf(actual);
        }
    }

    private static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs"))) {
            p = p.getParent();
        }
        assertThat(p).as("a docs/ directory above the working directory").isNotNull();
        return p;
    }
}
