package io.millrace.api;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowAssigner;
import java.util.Objects;

/**
 * The first step of a window join: {@code left.join(right).where(keyOfLeft).equalTo(keyOfRight).window(assigner)},
 * finished with {@link WindowJoin#apply}. Rows of both streams with equal keys that fall into the same window
 * are paired when the window fires.
 *
 * @param <A> left row type
 * @param <B> right row type
 */
public final class JoinedStreams<A, B> {
    private final DataStream<A> left;
    private final DataStream<B> right;

    JoinedStreams(DataStream<A> left, DataStream<B> right) {
        this.left = left;
        this.right = right;
    }

    /** The key of a left row; rows of both sides meet when their keys are equal. */
    public <K> Where<A, B, K> where(KeySelector<A, K> leftKey) {
        return new Where<>(left, right, Objects.requireNonNull(leftKey, "leftKey"));
    }

    /** A window join with its left key; {@link #equalTo} gives the right key. */
    public static final class Where<A, B, K> {
        private final DataStream<A> left;
        private final DataStream<B> right;
        private final KeySelector<A, K> leftKey;

        Where(DataStream<A> left, DataStream<B> right, KeySelector<A, K> leftKey) {
            this.left = left;
            this.right = right;
            this.leftKey = leftKey;
        }

        /** The key of a right row, of the same type as the left key. */
        public EqualTo<A, B, K> equalTo(KeySelector<B, K> rightKey) {
            return new EqualTo<>(left, right, leftKey, Objects.requireNonNull(rightKey, "rightKey"));
        }
    }

    /** A window join with both keys; {@link #window} gives the windows. */
    public static final class EqualTo<A, B, K> {
        private final DataStream<A> left;
        private final DataStream<B> right;
        private final KeySelector<A, K> leftKey;
        private final KeySelector<B, K> rightKey;

        EqualTo(DataStream<A> left, DataStream<B> right, KeySelector<A, K> leftKey, KeySelector<B, K> rightKey) {
            this.left = left;
            this.right = right;
            this.leftKey = leftKey;
            this.rightKey = rightKey;
        }

        /**
         * The windows in which rows meet: tumbling, sliding or session windows by event or processing time
         * ({@code Windows.tumbling(...)}, {@code Windows.sliding(...)}, {@code Windows.session(...)}).
         */
        public <W extends Window> WindowJoin<A, B, K, W> window(WindowAssigner<W> assigner) {
            return new WindowJoin<>(left, right, leftKey, rightKey, Objects.requireNonNull(assigner, "assigner"));
        }
    }
}
