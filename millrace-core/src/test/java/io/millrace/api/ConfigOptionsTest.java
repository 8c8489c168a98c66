package io.millrace.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigOptionsTest {

    private static ConfigValues values(String... keyValues) {
        ConfigValues v = ConfigValues.empty();
        for (int i = 0; i < keyValues.length; i += 2) {
            v = v.with(keyValues[i], keyValues[i + 1], "test");
        }
        return v;
    }

    private static PipelineConfig apply(String... keyValues) {
        return ConfigOptions.apply(PipelineConfig.defaults(), values(keyValues));
    }

    @Test
    void everyCoreOption_isAppliedToPipelineConfig() {
        PipelineConfig c = apply(
                "parallelism", "3", "max-parallelism", "64", "batch-size", "100", "channel-capacity", "8",
                "buffer-timeout", "0", "checkpoint.dir", "ck", "checkpoint.interval", "500ms",
                "checkpoint.timeout", "PT2M", "checkpoint.min-pause", "1s", "checkpoint.retained", "5",
                "checkpoint.mode", "at-least-once", "checkpoint.allow-non-restored-state", "TRUE",
                "restart.strategy", "exponential-backoff", "restart.attempts", "4", "restart.delay", "2s",
                "restart.max-delay", "5s", "restart.multiplier", "3");

        assertThat(c.parallelism()).isEqualTo(3);
        assertThat(c.maxParallelism()).isEqualTo(64);
        assertThat(c.batchSize()).isEqualTo(100);
        assertThat(c.channelCapacity()).isEqualTo(8);
        assertThat(c.bufferTimeout()).isZero();
        CheckpointConfig ck = c.checkpoints();
        assertThat(ck.directory()).isEqualTo(Path.of("ck").toAbsolutePath());
        assertThat(ck.interval()).isEqualTo(Duration.ofMillis(500));
        assertThat(ck.timeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(ck.minPause()).isEqualTo(Duration.ofSeconds(1));
        assertThat(ck.retained()).isEqualTo(5);
        assertThat(ck.mode()).isEqualTo(CheckpointConfig.Mode.AT_LEAST_ONCE);
        assertThat(ck.allowNonRestoredState()).isTrue();
        RestartStrategy r = c.restartStrategy();
        assertThat(r.maxRestarts()).isEqualTo(4);
        assertThat(List.of(r.delayBefore(1), r.delayBefore(2), r.delayBefore(3)))
                .containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void fixedDelayRestart_takesDefaultsForPartsNotGiven() {
        RestartStrategy r = apply("restart.strategy", "fixed-delay").restartStrategy();
        assertThat(r.maxRestarts()).isEqualTo(3);
        assertThat(r.delayBefore(2)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void durations_acceptShortFormsAndIso() {
        assertThat(ConfigType.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(ConfigType.parseDuration(" 30s ")).isEqualTo(Duration.ofSeconds(30));
        assertThat(ConfigType.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(ConfigType.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(ConfigType.parseDuration("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(ConfigType.parseDuration("pt1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> ConfigType.parseDuration("5 minutes")).hasMessageContaining("'5 minutes' is not a duration");
    }

    @Test
    void badValue_failsNamingKeyValueOriginAndAccepted() {
        assertThatThrownBy(() -> apply("checkpoint.interval", "often"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("option 'checkpoint.interval'")
                .hasMessageContaining("'often'")
                .hasMessageContaining("(test)")
                .hasMessageContaining("Accepted: a duration > 0");
        assertThatThrownBy(() -> apply("parallelism", "0"))
                .hasMessageContaining("option 'parallelism'").hasMessageContaining("'0'").hasMessageContaining("1–32768");
        assertThatThrownBy(() -> apply("checkpoint.interval", "0s")).hasMessageContaining("not positive");
        assertThatThrownBy(() -> apply("checkpoint.mode", "twice"))
                .hasMessageContaining("Accepted: exactly-once, at-least-once");
        assertThatThrownBy(() -> apply("checkpoint.allow-non-restored-state", "yes"))
                .hasMessageContaining("Accepted: true, false");
        assertThatThrownBy(() -> apply("restart.multiplier", "0.5", "restart.strategy", "exponential-backoff"))
                .hasMessageContaining("option 'restart.multiplier'").hasMessageContaining("a number ≥ 1");
        assertThat(catchKey(() -> apply("batch-size", "lots"))).isEqualTo("batch-size");
    }

    @Test
    void unknownKey_failsWithTheClosestKnownKey() {
        assertThatThrownBy(() -> apply("checkpoint.intervall", "10s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown option 'checkpoint.intervall'")
                .hasMessageContaining("Did you mean 'checkpoint.interval'?");
    }

    @Test
    void optionOfAModuleNotOnTheClassPath_failsNamingTheKeyAndTheModule() {
        // millrace-core's tests run without millrace-rocksdb
        assertThat(ConfigOptions.find("state.rocksdb.managed-memory")).isNull();
        assertThatThrownBy(() -> apply("state.rocksdb.managed-memory", "1gb"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("option 'state.rocksdb.managed-memory'")
                .hasMessageContaining("belongs to the module millrace-rocksdb, which is not on the class path");
        assertThat(catchKey(() -> apply("state.rocksdb.managed-memory", "1gb"))).isEqualTo("state.rocksdb.managed-memory");
    }

    @Test
    void restartPartWithoutMatchingStrategy_failsNamingBoth() {
        assertThatThrownBy(() -> apply("restart.attempts", "5"))
                .hasMessageContaining("option 'restart.attempts'")
                .hasMessageContaining("applies only with restart.strategy fixed-delay or exponential-backoff")
                .hasMessageContaining("not set");
        assertThatThrownBy(() -> apply("restart.strategy", "fixed-delay", "restart.multiplier", "2"))
                .hasMessageContaining("option 'restart.multiplier'")
                .hasMessageContaining("restart.strategy is fixed-delay");
        assertThatThrownBy(() -> apply("restart.strategy", "exponential-backoff", "restart.delay", "10m"))
                .hasMessageContaining("option 'restart.strategy'")
                .hasMessageContaining("must not be below the initial delay");
    }

    @Test
    void configFile_readsKeyValueLinesSkippingCommentsAndFailsNamingTheLine() {
        ConfigValues v = ConfigValues.parse(List.of("# job settings", "", "parallelism: 2", "  checkpoint.dir : C:/data/ck  "),
                "file job.conf");
        assertThat(v.keys()).containsExactly("parallelism", "checkpoint.dir");
        assertThat(v.get("checkpoint.dir")).isEqualTo(new ConfigValues.Value("C:/data/ck", "file job.conf, line 4"));

        assertThatThrownBy(() -> ConfigValues.parse(List.of("parallelism 2"), "file job.conf"))
                .hasMessageContaining("file job.conf, line 1: expected 'key: value'");
        assertThatThrownBy(() -> ConfigValues.parse(List.of("parallelism: 2", "parallelism: 3"), "file job.conf"))
                .hasMessageContaining("line 2: option 'parallelism' is already set at file job.conf, line 1");
        assertThatThrownBy(() -> ConfigOptions.apply(PipelineConfig.defaults(),
                        ConfigValues.parse(List.of("", "batch-size: many"), "file job.conf")))
                .hasMessageContaining("(file job.conf, line 2)");
    }

    @Test
    void overlay_higherLayerWinsKeyByKey() {
        ConfigValues file = values("parallelism", "2", "batch-size", "64");
        ConfigValues flags = ConfigValues.empty().with("parallelism", "5", "flag");
        PipelineConfig c = ConfigOptions.apply(PipelineConfig.defaults(), file.overlay(flags));
        assertThat(c.parallelism()).isEqualTo(5);
        assertThat(c.batchSize()).isEqualTo(64);
        assertThat(file.overlay(flags).get("parallelism").origin()).isEqualTo("flag");
    }

    @Test
    void systemProperties_withPrefixOnly_becomeValues() {
        Properties p = new Properties();
        p.setProperty("millrace.checkpoint.interval", "1m");
        p.setProperty("user.home", "/home/x");
        ConfigValues v = ConfigValues.fromSystemProperties(p);
        assertThat(v.keys()).containsExactly("checkpoint.interval");
        assertThat(v.get("checkpoint.interval").origin()).isEqualTo("system property millrace.checkpoint.interval");
        assertThat(v.toSystemProperties()).containsEntry("millrace.checkpoint.interval", "1m");
    }

    @Test
    void newPipelineConfig_appliesSystemProperties_andSettersWin() {
        System.setProperty("millrace.parallelism", "7");
        System.setProperty("millrace.checkpoint.retained", "9");
        try {
            PipelineConfig c = new PipelineConfig().parallelism(2);
            assertThat(c.parallelism()).isEqualTo(2);
            assertThat(c.checkpoints().retained()).isEqualTo(9);
            assertThat(PipelineConfig.defaults().checkpoints().retained()).isEqualTo(3);
            assertThat(c.copy().checkpoints().retained()).isEqualTo(9);
            assertThat(Pipeline.create().config().parallelism()).isEqualTo(7);

            System.setProperty("millrace.parallelism", "-1");
            assertThatThrownBy(PipelineConfig::new)
                    .hasMessageContaining("option 'parallelism'")
                    .hasMessageContaining("system property millrace.parallelism");
        } finally {
            System.clearProperty("millrace.parallelism");
            System.clearProperty("millrace.checkpoint.retained");
        }
    }

    @Test
    void registry_hasUniqueWellFormedKeysWithDescriptions() {
        assertThat(ConfigOptions.all()).extracting(ConfigOption::key).doesNotHaveDuplicates().contains("checkpoint.dir");
        assertThat(ConfigOptions.all()).allSatisfy(o -> {
            assertThat(o.description()).isNotBlank();
            assertThat(ConfigOptions.find(o.key())).isSameAs(o);
            assertThat(o.systemProperty()).isEqualTo("millrace." + o.key());
        });
        assertThatThrownBy(() -> ConfigOption.of("Bad_Key", ConfigType.bool(), false, "false", "x", (c, v, all) -> {}))
                .hasMessageContaining("'Bad_Key'");
    }

    private static String catchKey(Runnable r) {
        try {
            r.run();
            return null;
        } catch (ConfigException e) {
            return e.key();
        }
    }
}
