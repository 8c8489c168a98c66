package io.millrace.server.newjob;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Maven project that {@code millrace new-job} writes: a pom that depends on millrace-core in provided scope
 * and on its test jar for the operator harness, a first pipeline with a {@code main}, its tests and sample
 * input. The files are the {@code *.template} resources next to this class. {@link #write} fills in their
 * placeholders ({@code {{group}}}, {@code {{artifact}}}, {@code {{package}}}, {@code {{package.path}}}, {@code {{version}}} and the
 * versions of {@code versions.properties}, which the build fills in from its own pom) and leaves out the lines
 * that only mark doc snippets ({@code // tag::name[]}, {@code <!-- end::name[] -->}).
 */
public final class JobTemplate {
    /** The Maven coordinates and Java package of the project to write; checked by the caller. */
    public record Project(String group, String artifact, String javaPackage) {}

    /** A resource next to this class, and where it goes in the project ({@code {{package.path}}} filled in). */
    private record Entry(String resource, String target) {}

    private static final List<Entry> FILES = List.of(
            new Entry("pom.xml.template", "pom.xml"),
            new Entry("README.md.template", "README.md"),
            new Entry("gitignore.template", ".gitignore"),
            new Entry("readings.jsonl.template", "data/readings.jsonl"),
            new Entry("TemperatureJob.java.template", "src/main/java/{{package.path}}/TemperatureJob.java"),
            new Entry("Reading.java.template", "src/main/java/{{package.path}}/Reading.java"),
            new Entry("MinuteStats.java.template", "src/main/java/{{package.path}}/MinuteStats.java"),
            new Entry("OverheatAlert.java.template", "src/main/java/{{package.path}}/OverheatAlert.java"),
            new Entry("OverheatAlertTest.java.template", "src/test/java/{{package.path}}/OverheatAlertTest.java"),
            new Entry("TemperatureJobTest.java.template", "src/test/java/{{package.path}}/TemperatureJobTest.java"));

    /** The version of the project written, so its jar is {@code target/ARTIFACT-PROJECT_VERSION.jar}. */
    public static final String PROJECT_VERSION = "0.1.0-SNAPSHOT";

    /** The job's main class, relative to its package. */
    public static final String MAIN_CLASS = "TemperatureJob";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([\\w.]+)}}");
    private static final Pattern SNIPPET_MARKER = Pattern.compile("^\\s*(//|<!--) (tag|end)::[\\w-]+\\[]( -->)?\\s*$");

    private JobTemplate() {}

    /**
     * Writes the project into {@code dir} (created if missing; the caller has checked that it is empty) and
     * returns the files written, relative to {@code dir}, in the order written.
     */
    public static List<Path> write(Path dir, Project project) throws IOException {
        Map<String, String> values = new LinkedHashMap<>(versions());
        values.put("group", project.group());
        values.put("artifact", project.artifact());
        values.put("package", project.javaPackage());
        values.put("package.path", project.javaPackage().replace('.', '/'));
        values.put("version", PROJECT_VERSION);
        List<Path> written = new ArrayList<>();
        for (Entry e : FILES) {
            Path relative = Path.of(render(e.target(), values, e.resource()));
            Path file = dir.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, render(resource(e.resource()), values, e.resource()), StandardCharsets.UTF_8);
            written.add(relative);
        }
        return written;
    }

    /** The Millrace version the project depends on: the version of this build. */
    public static String millraceVersion() {
        return versions().get("millrace.version");
    }

    /**
     * {@code template} with its placeholders replaced and its snippet marker lines left out.
     *
     * @throws IllegalStateException if a placeholder has no value; {@code source} names the template
     */
    static String render(String template, Map<String, String> values, String source) {
        StringBuilder out = new StringBuilder(template.length());
        for (String line : template.split("\n", -1)) {
            if (SNIPPET_MARKER.matcher(line).matches()) {
                continue;
            }
            Matcher m = PLACEHOLDER.matcher(line);
            StringBuilder filled = new StringBuilder();
            while (m.find()) {
                String value = values.get(m.group(1));
                if (value == null) {
                    throw new IllegalStateException("template " + source + " has placeholder {{" + m.group(1)
                            + "}}, which has no value; known: " + values.keySet());
                }
                m.appendReplacement(filled, Matcher.quoteReplacement(value));
            }
            m.appendTail(filled);
            out.append(filled).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    private static Map<String, String> versions() {
        Properties p = new Properties();
        try (InputStream in = JobTemplate.class.getResourceAsStream("versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("resource versions.properties missing next to " + JobTemplate.class.getName());
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read versions.properties of the job template", e);
        }
        Map<String, String> versions = new LinkedHashMap<>();
        for (String name : p.stringPropertyNames()) {
            String value = p.getProperty(name);
            if (value.contains("${")) {
                throw new IllegalStateException("versions.properties of the job template was not filled in by the build: "
                        + name + "=" + value);
            }
            versions.put(name, value);
        }
        return versions;
    }

    private static String resource(String name) {
        try (InputStream in = JobTemplate.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("job template resource " + name + " missing next to " + JobTemplate.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read job template resource " + name, e);
        }
    }
}
