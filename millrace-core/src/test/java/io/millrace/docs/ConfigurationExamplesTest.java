package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.CheckpointConfig;
import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/configuration.md. */
class ConfigurationExamplesTest {
    @TempDir
    Path work;

    @Test
    void optionsSetInCode_winOverSystemProperties() {
        Path dir = work.resolve("job");
        System.setProperty("millrace.checkpoint.interval", "1m");
        System.setProperty("millrace.parallelism", "8");
        try {
            // tag::in-code[]
            PipelineConfig config = new PipelineConfig()       // defaults + millrace.* system properties
                    .parallelism(4)                            // parallelism
                    .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofSeconds(5))); // restart.*
            config.checkpoints()
                    .directory(dir)                            // checkpoint.dir
                    .mode(CheckpointConfig.Mode.EXACTLY_ONCE); // checkpoint.mode
            Pipeline pipeline = Pipeline.create(config);
            // end::in-code[]
            assertThat(pipeline.config().parallelism()).isEqualTo(4);
            assertThat(pipeline.config().checkpoints().interval()).isEqualTo(Duration.ofMinutes(1));
            assertThat(pipeline.config().checkpoints().directory()).isEqualTo(dir.toAbsolutePath());
            assertThat(pipeline.config().restartStrategy().maxRestarts()).isEqualTo(3);
        } finally {
            System.clearProperty("millrace.checkpoint.interval");
            System.clearProperty("millrace.parallelism");
        }
    }

    @Test
    void embeddedJob_readsAConfigFile() throws Exception {
        Path file = Files.writeString(work.resolve("job.conf"), """
                # checkpoints every 30 s into /var/lib/vibration
                checkpoint.dir: %s
                checkpoint.interval: 30s
                restart.strategy: exponential-backoff
                restart.max-delay: 1m
                """.formatted(work.resolve("ck")));
        // tag::from-file[]
        PipelineConfig config = ConfigOptions.apply(new PipelineConfig(), ConfigValues.fromFile(file));
        Pipeline pipeline = Pipeline.create(config);
        // end::from-file[]
        assertThat(pipeline.config().checkpoints().interval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(pipeline.config().restartStrategy().delayBefore(10)).isEqualTo(Duration.ofMinutes(1));
        assertThat(pipeline.config().restartStrategy().maxRestarts()).isEqualTo(3);
    }
}
