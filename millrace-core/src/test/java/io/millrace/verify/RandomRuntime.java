package io.millrace.verify;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * A random shape of the local runtime for one round: batch size 1..600, channel capacity 1..8, and a
 * parallelism of 1..4 drawn per operator. {@link #toString()} says what was drawn, for failure messages.
 */
final class RandomRuntime {
    private final Random random;
    private final PipelineConfig config;
    private final StringBuilder drawn = new StringBuilder();

    RandomRuntime(Random random) {
        this(random, UnaryOperator.identity());
    }

    /** {@code backend} adds the state backend's settings to the drawn configuration (identity: the heap backend). */
    RandomRuntime(Random random, UnaryOperator<PipelineConfig> backend) {
        this.random = random;
        int batch = random.nextInt(4) == 0 ? 1 + random.nextInt(8) : 1 + random.nextInt(600);
        int capacity = 1 + random.nextInt(8);
        this.config = backend.apply(new PipelineConfig().parallelism(1 + random.nextInt(4)).batchSize(batch).channelCapacity(capacity));
        drawn.append("batchSize=").append(batch).append(" channelCapacity=").append(capacity)
                .append(" defaultParallelism=").append(config.parallelism())
                .append(" backend=").append(config.stateBackend());
    }

    Pipeline pipeline() {
        return Pipeline.create(config);
    }

    /** A parallelism for the named operator, 1..4. */
    int parallelism(String operator) {
        int p = 1 + random.nextInt(4);
        drawn.append(' ').append(operator).append('=').append(p);
        return p;
    }

    /** Records per source poll: 0 for the generator source's 512, else 1..64 (frequent watermarks). */
    int maxPoll() {
        int n = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(64);
        drawn.append(" maxPoll=").append(n);
        return n;
    }

    @Override
    public String toString() {
        return drawn.toString();
    }
}
