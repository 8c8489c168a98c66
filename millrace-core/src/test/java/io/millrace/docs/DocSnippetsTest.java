package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the code in docs/ honest. A fenced block in a doc preceded by
 * {@code <!-- snippet: millrace-core/src/test/java/.../Example.java#name -->} must equal the region between
 * {@code // tag::name[]} and {@code // end::name[]} in that file (in XML: {@code <!-- tag::name[] -->} and
 * {@code <!-- end::name[] -->}), indentation aside. The example files are ordinary tests, or the templates of
 * {@code millrace new-job}, which NewJobIT builds and tests, so every such snippet is compiled and run by the
 * suite.
 */
class DocSnippetsTest {
    private static final Pattern MARKER = Pattern.compile("<!-- snippet: ([^#\\s]+)#([\\w-]+) -->\\s*\\n```\\w*\\n(.*?)\\n```", Pattern.DOTALL);

    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("docs/ not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    @Test
    void everySnippetInDocs_matchesItsTestedSource() throws IOException {
        Path root = repoRoot();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> docs = Stream.concat(Files.walk(root.resolve("docs")), Stream.of(root.resolve("README.md")))) {
            for (Path doc : docs.filter(f -> f.toString().endsWith(".md") && Files.exists(f)).toList()) {
                Matcher m = MARKER.matcher(Files.readString(doc));
                while (m.find()) {
                    checked++;
                    Path source = root.resolve(m.group(1));
                    if (!Files.exists(source)) {
                        problems.add(doc.getFileName() + ": snippet source " + m.group(1) + " does not exist");
                        continue;
                    }
                    String region = region(Files.readString(source), m.group(2));
                    if (region == null) {
                        problems.add(doc.getFileName() + ": no tag '" + m.group(2) + "' in " + m.group(1));
                    } else if (!normalize(region).equals(normalize(m.group(3)))) {
                        problems.add(doc.getFileName() + ": snippet '" + m.group(2) + "' differs from " + m.group(1)
                                + "\n--- doc ---\n" + m.group(3) + "\n--- source ---\n" + region);
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).as("number of snippets checked").isGreaterThan(0);
    }

    static String region(String source, String tag) {
        boolean xml = source.contains("<!-- tag::" + tag + "[] -->");
        String start = xml ? "<!-- tag::" + tag + "[] -->" : "// tag::" + tag + "[]";
        String end = xml ? "<!-- end::" + tag + "[] -->" : "// end::" + tag + "[]";
        int s = source.indexOf(start);
        int e = source.indexOf(end);
        if (s < 0 || e < s) {
            return null;
        }
        String body = source.substring(source.indexOf('\n', s) + 1, e);
        return body.substring(0, Math.max(0, body.lastIndexOf('\n')));
    }

    /** Removes the common indentation and trailing spaces so that a snippet can sit at any depth. */
    static String normalize(String code) {
        List<String> lines = code.lines().map(String::stripTrailing).toList();
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return b.toString().strip();
    }
}
