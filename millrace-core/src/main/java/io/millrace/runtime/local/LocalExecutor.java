package io.millrace.runtime.local;

import io.millrace.api.JobHandle;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.PlanExecutor;
import io.millrace.runtime.checkpoint.CheckpointStorage;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.plan.OperatorLowering;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.StateBackendProvider;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline in this JVM: one thread per task subtask, exchanges as in-memory channels. Keyed state
 * lives in the backend the pipeline's configuration selects ({@code stateBackend}, see
 * {@link StateBackendProvider}) unless the executor was given a backend factory explicitly.
 */
public final class LocalExecutor implements PlanExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(LocalExecutor.class);

    /** The explicitly given factory; null: resolve the configured backend per job. */
    private final KeyedStateBackendFactory backends;

    public LocalExecutor() {
        this.backends = null;
    }

    /** Uses {@code backends} for every job, whatever the configuration selects. */
    public LocalExecutor(KeyedStateBackendFactory backends) {
        this.backends = Objects.requireNonNull(backends, "backends");
    }

    @Override
    public JobHandle submit(LogicalPlan plan, String jobName) {
        PhysicalPlan physical = PhysicalPlan.of(plan);
        KeyedStateBackendFactory factory = backends != null ? backends : StateBackendProvider.resolve(plan.config());
        CheckpointStorage storage = null;
        io.millrace.api.CheckpointConfig checkpoints = plan.config().checkpoints();
        if (checkpoints.restoreFrom() != null && !checkpoints.enabled()) {
            throw new IllegalArgumentException("option 'checkpoint restoreFrom' (" + checkpoints.restoreFrom()
                    + ") needs a checkpoint directory: set CheckpointConfig.directory (option 'checkpoint directory')");
        }
        if (checkpoints.enabled()) {
            try {
                storage = new LocalCheckpointStorage(checkpoints.directory(), checkpoints.savepointDirectory());
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("checkpoint directory " + plan.config().checkpoints().directory()
                        + " cannot be used: " + e.getMessage(), e);
            }
        }
        LOG.info("job '{}' starts on state backend {}", jobName,
                backends != null ? "given to the executor" : "'" + plan.config().stateBackend() + "'");
        LocalJob job = new LocalJob(jobName, physical, factory, new OperatorLowering(), storage);
        job.start();
        return job;
    }
}
