package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.server.newjob.JobTemplate;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code millrace new-job}: what it writes, what it refuses, and that its pom pins what the Millrace build uses. */
class NewJobCommandTest {
    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int newJob(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "new-job";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.run(new PrintWriter(out), new PrintWriter(err), all);
    }

    @Test
    void withDefaults_writesAProjectNamedAfterItsDirectory_withEveryPlaceholderFilledIn() throws IOException {
        Path dir = tmp.resolve("line-3-temperatures");

        assertThat(newJob(dir.toString())).as("stderr: %s", err).isZero();

        String pom = Files.readString(dir.resolve("pom.xml"));
        assertThat(pom).contains("<groupId>com.example</groupId>", "<artifactId>line-3-temperatures</artifactId>",
                "<millrace.version>" + JobTemplate.millraceVersion() + "</millrace.version>",
                "<mainClass>com.example.TemperatureJob</mainClass>", "<scope>provided</scope>", "<type>test-jar</type>");
        assertThat(dir.resolve("src/main/java/com/example/TemperatureJob.java")).content().startsWith("package com.example;");
        assertThat(dir.resolve("src/test/java/com/example/OverheatAlertTest.java")).exists();
        assertThat(dir.resolve("data/readings.jsonl")).content().contains("\"sensor\":\"temperature\"");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f)).as("%s", f).doesNotContain("{{", "tag::", "end::");
            }
        }
        assertThat(out.toString()).contains("mvn package",
                "./millrace run --jar " + dir.resolve("target/line-3-temperatures-" + JobTemplate.PROJECT_VERSION + ".jar")
                        + " --class com.example.TemperatureJob -- --input " + dir.resolve("data/readings.jsonl"),
                "mvn -B -DskipTests -pl millrace-core -am install");
    }

    @Test
    void withGroupArtifactAndPackage_usesThemInThePomAndTheSourcePaths() throws IOException {
        Path dir = tmp.resolve("job");

        assertThat(newJob("--group", "com.acme.plant", "--artifact", "oven-alerts", "--package", "com.acme.plant.ovens", dir.toString()))
                .as("stderr: %s", err).isZero();

        assertThat(dir.resolve("pom.xml")).content().contains("<groupId>com.acme.plant</groupId>",
                "<artifactId>oven-alerts</artifactId>", "<mainClass>com.acme.plant.ovens.TemperatureJob</mainClass>");
        assertThat(dir.resolve("src/main/java/com/acme/plant/ovens/OverheatAlert.java")).content()
                .startsWith("package com.acme.plant.ovens;");
        assertThat(dir.resolve("README.md")).content().contains("target/oven-alerts-" + JobTemplate.PROJECT_VERSION + ".jar");
    }

    @Test
    void intoANonEmptyDirectory_refusesWithExitCode2_andWritesNothing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("existing"));
        Files.writeString(dir.resolve("notes.txt"), "mine");

        assertThat(newJob(dir.toString())).isEqualTo(2);

        assertThat(err.toString()).contains("millrace new-job: directory " + dir + " is not empty (it holds notes.txt)");
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries).containsExactly(dir.resolve("notes.txt"));
        }
    }

    @Test
    void intoAnExistingEmptyDirectory_writesTheProject() {
        assertThat(newJob(tmp.toString(), "--artifact", "empty-dir-job")).as("stderr: %s", err).isZero();
        assertThat(tmp.resolve("pom.xml")).content().contains("<artifactId>empty-dir-job</artifactId>");
    }

    @Test
    void ontoAFile_refusesWithExitCode2() throws IOException {
        Path file = Files.writeString(tmp.resolve("job"), "");

        assertThat(newJob(file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(file + " exists and is not a directory");
    }

    @Test
    void badNames_areRefusedWithExitCode2_namingTheOption() {
        assertThat(newJob("--package", "com.acme.new", tmp.resolve("a").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--package 'com.acme.new' is not a Java package name");

        assertThat(newJob("--group", "com.acme-plant", tmp.resolve("b").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--group 'com.acme-plant' is not a Java package name, so it cannot be the package: give --package");

        assertThat(newJob("--group", "com/acme", "--package", "com.acme", tmp.resolve("c").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--group 'com/acme' is not a Maven groupId");

        assertThat(newJob(tmp.resolve("my job").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("the name of DIR, 'my job', is not a Maven artifactId").contains("give --artifact");

        assertThat(tmp.resolve("a")).doesNotExist();
        assertThat(tmp.resolve("my job")).doesNotExist();
    }

    @Test
    void help_listsTheOptionsAndTheDirectory() {
        assertThat(newJob("--help")).isZero();
        assertThat(out.toString()).contains("Usage: millrace new-job", "DIR", "--group=GROUP", "--artifact=ARTIFACT",
                "--package=PACKAGE", "provided", "docs/writing-a-job.md");
    }

    @Test
    void templatePom_pinsThePluginVersionsOfTheMillraceBuild_soThatItBuildsOfflineWhereMillraceBuilt() throws Exception {
        Path dir = tmp.resolve("pins");
        assertThat(newJob(dir.toString())).isZero();

        Map<String, String> template = pluginVersions(dir.resolve("pom.xml"));
        Map<String, String> millrace = pluginVersions(sourceRoot().resolve("pom.xml"));

        assertThat(template).containsKeys("maven-compiler-plugin", "maven-surefire-plugin", "maven-jar-plugin",
                "maven-resources-plugin");
        template.forEach((plugin, version) ->
                assertThat(millrace).as("version of %s in the Millrace build", plugin).containsEntry(plugin, version));
    }

    /** artifactId to version of the plugins in the pluginManagement of {@code pom}. */
    private static Map<String, String> pluginVersions(Path pom) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        Element management = (Element) doc.getElementsByTagName("pluginManagement").item(0);
        NodeList plugins = management.getElementsByTagName("plugin");
        Map<String, String> versions = new LinkedHashMap<>();
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            versions.put(text(plugin, "artifactId"), text(plugin, "version"));
        }
        return versions;
    }

    private static String text(Element parent, String child) {
        NodeList nodes = parent.getElementsByTagName(child);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().trim();
    }

    private static Path sourceRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("millrace-core/pom.xml"))) {
            p = p.getParent();
        }
        assertThat(p).as("the Millrace source tree above the working directory").isNotNull();
        return p;
    }
}
