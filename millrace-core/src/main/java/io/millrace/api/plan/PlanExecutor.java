package io.millrace.api.plan;

import io.millrace.api.JobHandle;

/**
 * Runs logical plans. The local runtime provides one through {@link java.util.ServiceLoader}; the API
 * never refers to a runtime class directly.
 */
public interface PlanExecutor {
    JobHandle submit(LogicalPlan plan, String jobName);
}
