package io.millrace.api.sink;

import java.util.List;

/**
 * Makes prepared output visible. {@link #commit} must be idempotent and retryable: after a crash the
 * committables of the restored checkpoint are committed again, and some of them may already be.
 */
public interface Committer<C extends java.io.Serializable> extends AutoCloseable {
    void commit(List<C> committables) throws Exception;

    @Override
    default void close() throws Exception {}
}
