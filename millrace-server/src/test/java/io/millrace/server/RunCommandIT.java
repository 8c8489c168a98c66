package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code millrace run} with a job jar compiled at test time, in this JVM. */
class RunCommandIT {
    /** Creates its pipeline with Pipeline.create(): every setting comes from the command line. */
    private static final String COUNT_JOB = """
            package job;

            import io.millrace.api.Pipeline;
            import io.millrace.api.PipelineConfig;
            import io.millrace.api.time.WatermarkStrategy;
            import io.millrace.connector.file.TransactionalFileSink;
            import io.millrace.connector.generator.GeneratorSource;
            import java.nio.file.Files;
            import java.nio.file.Path;

            public class CountJob {
                public static void main(String[] args) throws Exception {
                    Pipeline p = Pipeline.create();
                    PipelineConfig c = p.config();
                    Files.writeString(Path.of(args[1]), "parallelism=" + c.parallelism()
                            + " batch-size=" + c.batchSize()
                            + " checkpoint.dir=" + c.checkpoints().directory()
                            + " checkpoint.interval=" + c.checkpoints().interval()
                            + " restarts=" + c.restartStrategy().maxRestarts()
                            + " context-loader-is-job=" + (Thread.currentThread().getContextClassLoader() == CountJob.class.getClassLoader()));
                    p.fromSource(GeneratorSource.of(i -> i, 1_000), WatermarkStrategy.noWatermarks(), "numbers").uid("numbers")
                            .filter(n -> n % 10 == 0).uid("tens")
                            .sinkTo(TransactionalFileSink.jsonLines(Path.of(args[0]))).uid("files");
                    p.execute("count-job");
                }
            }
            """;
    private static final String FAILING_JOB = """
            package job;

            public class Boom {
                public static void main(String[] args) {
                    throw new IllegalStateException("boom from the job");
                }
            }
            """;
    /** Two file sources, one skipping and one dead-lettering its bad lines, into a keyed count. */
    private static final String FILE_JOB = """
            package job;

            import io.millrace.api.DataStream;
            import io.millrace.api.Pipeline;
            import io.millrace.api.sink.CollectSink;
            import io.millrace.api.source.BadRecord;
            import io.millrace.api.source.BadRecordPolicy;
            import io.millrace.api.time.WatermarkStrategy;
            import io.millrace.connector.file.CsvFormat;
            import io.millrace.connector.file.FileSource;
            import java.nio.file.Path;

            public class FileJob {
                public static void main(String[] args) throws Exception {
                    Pipeline p = Pipeline.create();
                    FileSource<Long> numbers = FileSource.of(CsvFormat.withHeader().map(r -> r.getLong("n")), Path.of(args[0]));
                    p.fromSource(numbers, WatermarkStrategy.noWatermarks(), BadRecordPolicy.SKIP, "skipping")
                            .keyBy(n -> n % 2).reduce(Long::sum).sinkTo(new CollectSink<>());
                    DataStream<Long> dead = p.fromSource(numbers, WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "dead-lettering");
                    dead.sinkTo(new CollectSink<>());
                    dead.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(new CollectSink<>());
                    p.execute("file-job");
                }
            }
            """;
    private static final String NO_MAIN = """
            package job;

            public class NoMain {
                public static void start() {}
            }
            """;

    @TempDir
    static Path build;

    static Path jar;

    @TempDir
    Path work;

    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void buildJobJar() throws IOException {
        jar = TestJobJar.build(build, Map.of("job.CountJob", COUNT_JOB, "job.Boom", FAILING_JOB, "job.NoMain", NO_MAIN, "job.FileJob", FILE_JOB), "job.CountJob");
    }

    @AfterEach
    void clearPublishedOptions() {
        System.getProperties().stringPropertyNames().stream()
                .filter(n -> n.startsWith("millrace."))
                .forEach(System::clearProperty);
    }

    private int run(String... args) {
        return Main.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
    }

    @Test
    void jobJar_runsWithCheckpointsAndSettingsFromTheCommandLine() throws IOException {
        Path out = work.resolve("out");
        Path seen = work.resolve("config.txt");
        Path checkpoints = work.resolve("ck");
        Path conf = work.resolve("job.conf");
        Files.writeString(conf, "# from the file\nparallelism: 4\nbatch-size: 64\ncheckpoint.interval: 1h\n");

        int exit = run("run", "--jar", jar.toString(), "--class", "job.CountJob", "--config", conf.toString(),
                "-D", "parallelism=3", "--checkpoint-dir", checkpoints.toString(), "--checkpoint-interval", "200ms",
                "--restart", "fixed-delay:2:1s", "--", out.toString(), seen.toString());

        assertThat(exit).as("exit code; stderr:%n%s", err).isZero();
        assertThat(TestJobJar.read(seen)).isEqualTo("parallelism=3 batch-size=64 checkpoint.dir=" + checkpoints.toAbsolutePath()
                + " checkpoint.interval=PT0.2S restarts=2 context-loader-is-job=true");
        assertThat(committedLines(out)).containsExactlyInAnyOrderElementsOf(
                Stream.iterate(0L, n -> n < 1_000, n -> n + 10).map(String::valueOf).toList());
        try (Stream<Path> chk = Files.list(checkpoints.resolve("checkpoints"))) {
            assertThat(chk.filter(d -> Files.exists(d.resolve("_metadata"))).toList())
                    .as("complete checkpoints in %s", checkpoints).isNotEmpty();
        }
    }

    @Test
    void withoutClass_runsTheManifestMainClass_parentFirst() throws IOException {
        Path seen = work.resolve("config.txt");
        int exit = run("run", "--jar", jar.toString(), "--class-loading", "parent-first", "--parallelism", "2",
                "--", work.resolve("out").toString(), seen.toString());

        assertThat(exit).as("exit code; stderr:%n%s", err).isZero();
        assertThat(TestJobJar.read(seen)).startsWith("parallelism=2 batch-size=512 checkpoint.dir=null");
    }

    @Test
    void missingJar_exitsTwoNamingIt() {
        Path missing = work.resolve("nope.jar");
        assertThat(run("run", "--jar", missing.toString(), "--class", "job.CountJob")).isEqualTo(2);
        assertThat(err.toString()).contains("job jar " + missing + " does not exist");
    }

    @Test
    void notAJar_exitsTwoNamingIt() throws IOException {
        Path text = Files.writeString(work.resolve("job.jar"), "not a zip");
        assertThat(run("run", "--jar", text.toString(), "--class", "job.CountJob")).isEqualTo(2);
        assertThat(err.toString()).contains("job jar " + text + " is not a readable jar");
    }

    @Test
    void missingClass_exitsTwoNamingClassAndJar() {
        assertThat(run("run", "--jar", jar.toString(), "--class", "job.Missing")).isEqualTo(2);
        assertThat(err.toString()).contains("class job.Missing not found in job jar " + jar);
    }

    @Test
    void classWithoutMain_exitsTwoNamingIt() {
        assertThat(run("run", "--jar", jar.toString(), "--class", "job.NoMain")).isEqualTo(2);
        assertThat(err.toString()).contains("class job.NoMain has no public static void main(String[] args)");
    }

    @Test
    void badOptionValue_exitsTwoNamingKeyValueAndOriginBeforeTheJobStarts() {
        assertThat(run("run", "--jar", jar.toString(), "--checkpoint-interval", "often")).isEqualTo(2);
        assertThat(err.toString()).contains("option 'checkpoint.interval' has an invalid value 'often' (flag --checkpoint-interval)")
                .contains("Accepted: a duration > 0");
        assertThat(System.getProperty("millrace.checkpoint.interval")).as("nothing published").isNull();
    }

    @Test
    void unknownStateBackend_exitsTwoNamingTheKeyAndTheBackendsBeforeTheJobStarts() {
        assertThat(run("run", "--jar", jar.toString(), "-D", "state.backend=rocks")).isEqualTo(2);
        assertThat(err.toString()).contains("option 'state.backend' has an invalid value 'rocks' (-D state.backend):"
                + " no state backend of that name is on the class path. Accepted: heap, rocksdb.");
        assertThat(err.toString()).doesNotContain("stateBackend");
        assertThat(System.getProperty("millrace.state.backend")).as("nothing published").isNull();
    }

    @Test
    void optionsOfTheRocksDbModule_areCheckedUpFrontByTheirKeys() throws IOException {
        assertThat(run("run", "--jar", jar.toString(), "-D", "state.rocksdb.managed-memory=lots")).isEqualTo(2);
        assertThat(err.toString()).contains("option 'state.rocksdb.managed-memory' has an invalid value 'lots' (-D state.rocksdb.managed-memory)");
        Path conf = Files.writeString(work.resolve("job.conf"), "state.backend: rocksdb\nstate.rocksdb.cache.entrys: 100\n");
        assertThat(run("run", "--jar", jar.toString(), "--config", conf.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("unknown option 'state.rocksdb.cache.entrys' (file " + conf + ", line 2)."
                + " Did you mean 'state.rocksdb.cache.entries'?");
    }

    @Test
    void fileJob_logsItsStateBackendAtStart_andPerSourceRecordsAndBadRecordsAtTheEnd() throws IOException {
        Path input = Files.writeString(work.resolve("numbers.csv"), "n\n1\ntwo\n3\n4\n");
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stderr = System.err;
        int exit;
        System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            exit = run("run", "--jar", jar.toString(), "--class", "job.FileJob", "-D", "state.backend=rocksdb",
                    "-D", "state.rocksdb.directory=" + work.resolve("rocks"), "--", input.toString());
        } finally {
            System.setErr(stderr);
        }

        String logged = log.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(exit).as("exit code; stderr:%n%s%n%s", err, logged).isZero();
        assertThat(logged).contains("job 'file-job' starts on state backend 'rocksdb'")
                .contains("job 'file-job' finished: source 'skipping': 3 records, 1 bad record skipped;"
                        + " source 'dead-lettering': 3 records, 1 bad record dead-lettered");
    }

    @Test
    void unknownOptionInConfigFile_exitsTwoNamingFileAndLine() throws IOException {
        Path conf = Files.writeString(work.resolve("job.conf"), "parallelism: 2\ncheckpoint.dirr: /tmp/x\n");
        assertThat(run("run", "--jar", jar.toString(), "--config", conf.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("unknown option 'checkpoint.dirr' (file " + conf + ", line 2). Did you mean 'checkpoint.dir'?");
    }

    @Test
    void badRestartShorthand_exitsTwo() {
        assertThat(run("run", "--jar", jar.toString(), "--restart", "fixed-delay:3:5s:9")).isEqualTo(2);
        assertThat(err.toString()).contains("--restart 'fixed-delay:3:5s:9': fixed-delay takes at most 2 parts");
        assertThat(run("run", "--jar", jar.toString(), "--restart", "fixed-delay:x")).isEqualTo(2);
        assertThat(err.toString()).contains("option 'restart.attempts' has an invalid value 'x' (flag --restart)");
    }

    @Test
    void jobMainThrows_exitsOneWithTheCause() {
        assertThat(run("run", "--jar", jar.toString(), "--class", "job.Boom")).isEqualTo(1);
        assertThat(err.toString()).contains("job job.Boom failed: java.lang.IllegalStateException: boom from the job");
    }

    @Test
    void missingRequiredJar_isAUsageErrorWithExitTwo() {
        assertThat(run("run", "--class", "job.CountJob")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--jar=JOB.jar'");
    }

    private static List<String> committedLines(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> !f.getFileName().toString().startsWith(".")).flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }
    }
}
