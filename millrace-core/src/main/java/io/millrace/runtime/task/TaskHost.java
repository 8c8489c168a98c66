package io.millrace.runtime.task;

/** What a task reports to the job running it. Called from task threads. */
public interface TaskHost {
    /** The first failure cancels the job; later ones are attached as suppressed. */
    void taskFailed(Task task, Throwable cause);

    void taskFinished(Task task);

    boolean cancelled();

    /** How this job checkpoints, or null when checkpointing is off. */
    io.millrace.runtime.checkpoint.TaskCheckpointing checkpointing();
}
