package io.millrace.runtime.checkpoint;

import io.millrace.api.CheckpointConfig;
import java.util.concurrent.Executor;

/**
 * What a task needs to take part in checkpoints: where to write, where to write from (a thread off the
 * task's hot path), and whom to tell.
 */
public record TaskCheckpointing(CheckpointConfig.Mode mode, CheckpointStorage storage, Executor asyncWriter, CheckpointCoordinator coordinator) {}
