package io.millrace.runtime.task;

import io.millrace.runtime.operator.StreamOperator;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * The mails of one operator of a task's chain: actions given from any thread ({@link #execute}), run on the task
 * thread in the order given, between input batches, or while that operator or one before it in the chain waits for
 * them ({@link Task#runMailsUntil}). Its {@code position} is the operator's place in the chain.
 */
final class OperatorMailbox implements Executor {
    private final Task task;
    private final int position;
    private final ConcurrentLinkedQueue<Runnable> mails = new ConcurrentLinkedQueue<>();
    /** The operator whose processing-time callback runs while it waits; null for a source head. Set before the task runs. */
    private StreamOperator<?> operator;

    OperatorMailbox(Task task, int position) {
        this.task = task;
        this.position = position;
    }

    void bind(StreamOperator<?> operator) {
        this.operator = operator;
    }

    @Override
    public void execute(Runnable mail) {
        mails.add(Objects.requireNonNull(mail, "mail"));
        task.mailQueued();
    }

    /** See {@link Task#runMailsUntil}. */
    void runUntil(BooleanSupplier done) throws Exception {
        task.runMailsUntil(this, done);
    }

    int position() {
        return position;
    }

    StreamOperator<?> operator() {
        return operator;
    }

    Runnable poll() {
        return mails.poll();
    }

    boolean hasMail() {
        return !mails.isEmpty();
    }
}
