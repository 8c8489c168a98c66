package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.window.Ev;
import io.millrace.runtime.window.WindowSnapshotContractTest;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.OneInputOperatorHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window snapshot contract on RocksDB (one operator instance per harness: restoring after every input would
 * open a database per input); closed backends leave no working directory behind.
 */
class RocksDbWindowSnapshotTest extends WindowSnapshotContractTest {
    @TempDir
    Path base;

    @Override
    protected HarnessSetup<OneInputOperatorHarness<Ev, Object>> harness(Supplier<OneInputOperator<Ev, Object>> operator) {
        return OneInputOperatorHarness.of(operator.get())
                .backend(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(base)));
    }

    @Override
    protected PipelineConfig loweredFor() {
        return new PipelineConfig().stateBackend("rocksdb");
    }

    @Override
    protected int maxParallelism() {
        return 128;
    }

    @Override
    protected void afterClose() throws Exception {
        try (Stream<Path> left = Files.list(base)) {
            assertThat(left).as("working directories of closed backends").isEmpty();
        }
    }
}
