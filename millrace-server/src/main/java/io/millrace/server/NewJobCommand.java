package io.millrace.server;

import io.millrace.server.newjob.JobTemplate;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.SourceVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code millrace new-job DIR}: writes a Maven project for a job of one's own into a new or empty directory
 * ({@link JobTemplate}) and prints how to build, test and run it.
 */
@Command(
        name = "new-job",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Writes a Maven project for a Millrace job into DIR, a new or empty directory:",
            "- a pom with millrace-core in provided scope ('millrace run' brings the",
            "  engine, so the jar does not pack it) and its test jar (the test harness);",
            "- a first pipeline over JSON-lines sensor readings (a keyed one-minute",
            "  window, an alert) with a main for 'millrace run', and sample input;",
            "- a test of its alert function in the operator harness, and a test of the",
            "  whole pipeline.",
            "Guide: docs/writing-a-job.md. Exit codes: 0 written; 2 a bad option, or DIR",
            "is not empty or cannot be written."
        })
final class NewJobCommand implements Callable<Integer> {
    private static final Pattern MAVEN_ID = Pattern.compile("[A-Za-z0-9_.-]+");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "Where to write the project; created if missing, refused if not empty.")
    Path dir;

    @Option(names = "--group", paramLabel = "GROUP", defaultValue = "com.example",
            description = "The project's Maven groupId. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--artifact", paramLabel = "ARTIFACT",
            description = "The project's Maven artifactId, also the jar's name. Default: the name of DIR.")
    String artifact;

    @Option(names = "--package", paramLabel = "PACKAGE",
            description = "The Java package of the job's classes. Default: GROUP.")
    String javaPackage;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path target = dir.toAbsolutePath().normalize();
        String artifactId = artifact != null ? artifact : target.getFileName() == null ? "" : target.getFileName().toString();
        String pkg = javaPackage != null ? javaPackage : group;
        String problem = problem(artifactId, pkg);
        if (problem == null) {
            problem = notEmpty(target);
        }
        if (problem != null) {
            err.println("millrace new-job: " + problem);
            err.flush();
            return 2;
        }
        List<Path> files;
        try {
            files = JobTemplate.write(target, new JobTemplate.Project(group, artifactId, pkg));
        } catch (IOException e) {
            err.println("millrace new-job: cannot write the project into " + target + ": " + e);
            err.flush();
            return 2;
        }
        Path jar = target.resolve("target").resolve(artifactId + "-" + JobTemplate.PROJECT_VERSION + ".jar");
        out.println("Wrote a Millrace job, " + group + ":" + artifactId + " (package " + pkg + "), into " + target + ":");
        files.forEach(f -> out.println("  " + f.toString().replace('\\', '/')));
        out.println();
        out.println("Build it and run its tests:");
        out.println("  cd " + target);
        out.println("  mvn package");
        out.println("Run it (./millrace is in the Millrace source tree):");
        out.println("  ./millrace run --jar " + jar + " --class " + pkg + "." + JobTemplate.MAIN_CLASS
                + " -- --input " + target.resolve("data/readings.jsonl"));
        out.println();
        out.println("The build needs Millrace " + JobTemplate.millraceVersion() + " in your local Maven repository; if it is not");
        out.println("there, run in the Millrace source tree: mvn -B -DskipTests -pl millrace-core -am install");
        out.flush();
        return 0;
    }

    /** What is wrong with the options, naming the option; null if nothing. */
    private String problem(String artifactId, String pkg) {
        if (!MAVEN_ID.matcher(group).matches()) {
            return "--group '" + group + "' is not a Maven groupId (letters, digits, '_', '-', '.')";
        }
        if (!MAVEN_ID.matcher(artifactId).matches()) {
            return artifact != null
                    ? "--artifact '" + artifactId + "' is not a Maven artifactId (letters, digits, '_', '-', '.')"
                    : "the name of DIR, '" + artifactId + "', is not a Maven artifactId (letters, digits, '_', '-', '.'): give --artifact";
        }
        if (!SourceVersion.isName(pkg)) {
            return javaPackage != null
                    ? "--package '" + pkg + "' is not a Java package name"
                    : "--group '" + group + "' is not a Java package name, so it cannot be the package: give --package";
        }
        return null;
    }

    /** Why {@code target} cannot take the project, or null if it is missing or an empty directory. */
    private static String notEmpty(Path target) {
        if (!Files.exists(target)) {
            return null;
        }
        if (!Files.isDirectory(target)) {
            return target + " exists and is not a directory";
        }
        try (Stream<Path> entries = Files.list(target)) {
            List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
            if (names.isEmpty()) {
                return null;
            }
            String shown = String.join(", ", names.subList(0, Math.min(3, names.size())))
                    + (names.size() > 3 ? " and " + (names.size() - 3) + " more" : "");
            return "directory " + target + " is not empty (it holds " + shown + "); give a new or empty directory";
        } catch (IOException e) {
            return "cannot list directory " + target + ": " + e;
        }
    }
}
