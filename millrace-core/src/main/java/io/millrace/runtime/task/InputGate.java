package io.millrace.runtime.task;

import io.millrace.runtime.exchange.Channel;
import java.util.List;

/**
 * The consumer side of all channels into one subtask. Polls them round robin and keeps, per channel,
 * the watermark, idleness and end of input; the subtask's input watermark is the minimum over channels
 * that are neither idle nor ended, and never goes back. Used by the task thread only.
 */
final class InputGate {
    /** One incoming channel and what is known of it. */
    static final class InputChannel {
        final Channel channel;
        final int inputIndex;
        long watermark = Long.MIN_VALUE;
        boolean idle;
        boolean ended;
        /** Delivered the barrier of the checkpoint being aligned. */
        boolean delivered;
        /** Not read until the alignment ends (exactly-once mode). */
        boolean blocked;

        InputChannel(Channel channel, int inputIndex) {
            this.channel = channel;
            this.inputIndex = inputIndex;
        }
    }

    private final InputChannel[] inputs;
    private int next;
    private int endedCount;
    private long watermark = Long.MIN_VALUE;

    /**
     * A gate resuming from a checkpoint at {@code restoredWatermark}: the subtask watermark starts there and only
     * advances past it.
     */
    InputGate(List<InputChannel> inputs, long restoredWatermark) {
        this.inputs = inputs.toArray(new InputChannel[0]);
        this.watermark = restoredWatermark;
    }

    /** The channel the last polled element came from. */
    private InputChannel current;

    /** The next element of any channel, or null if none has one now. */
    Object poll() {
        int n = inputs.length;
        for (int i = 0; i < n; i++) {
            InputChannel in = inputs[next];
            next = next + 1 == n ? 0 : next + 1;
            if (in.blocked) {
                continue;
            }
            Object e = in.channel.poll();
            if (e != null) {
                current = in;
                return e;
            }
        }
        return null;
    }

    InputChannel current() {
        return current;
    }

    boolean hasData() {
        for (InputChannel in : inputs) {
            if (!in.blocked && !in.channel.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Records a channel's watermark; returns the new subtask watermark if it advanced, else Long.MIN_VALUE. */
    long onWatermark(InputChannel in, long wm) {
        if (wm > in.watermark) {
            in.watermark = wm;
        }
        in.idle = false;
        return recompute();
    }

    /** Records a channel's idleness; returns the new subtask watermark if it advanced, else Long.MIN_VALUE. */
    long onIdle(InputChannel in, boolean idle) {
        in.idle = idle;
        return recompute();
    }

    /** Records a channel's end; returns the new subtask watermark if it advanced, else Long.MIN_VALUE. */
    long onEnd(InputChannel in) {
        if (!in.ended) {
            in.ended = true;
            endedCount++;
        }
        return recompute();
    }

    boolean allEnded() {
        return endedCount == inputs.length;
    }

    /** True when every live channel is idle (so this subtask is idle for its consumers). */
    boolean allIdle() {
        boolean anyLive = false;
        for (InputChannel in : inputs) {
            if (!in.ended) {
                anyLive = true;
                if (!in.idle) {
                    return false;
                }
            }
        }
        return anyLive;
    }

    long watermark() {
        return watermark;
    }

    /** Minimum over channels that are not idle; an ended channel counts with watermark +∞. */
    private long recompute() {
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (InputChannel in : inputs) {
            if (in.ended) {
                anyActive = true;
            } else if (!in.idle) {
                anyActive = true;
                if (in.watermark < min) {
                    min = in.watermark;
                }
            }
        }
        if (!anyActive) {
            return Long.MIN_VALUE; // every channel idle: hold the watermark where it is
        }
        if (min > watermark) {
            watermark = min;
            return min;
        }
        return Long.MIN_VALUE;
    }

    int size() {
        return inputs.length;
    }

    // ---- barrier alignment ----

    private long checkpointId = -1;
    private boolean aligning;

    /**
     * A barrier arrived on {@code in}. In exactly-once mode ({@code block}) the channel is not read
     * again until the barrier has arrived on every channel that has not ended. Returns true when the
     * checkpoint is aligned: take the snapshot, then call {@link #alignmentDone}.
     */
    boolean onBarrier(InputChannel in, long id, boolean block) {
        if (id < checkpointId || (id == checkpointId && !aligning)) {
            return false; // a barrier of an abandoned or finished checkpoint
        }
        if (id > checkpointId) {
            resetAlignment();
            checkpointId = id;
            aligning = true;
        }
        in.delivered = true;
        in.blocked = block;
        return aligned();
    }

    /** Whether every channel that has not ended delivered the barrier; ended channels never will. */
    boolean aligned() {
        if (!aligning) {
            return false;
        }
        for (InputChannel in : inputs) {
            if (!in.ended && !in.delivered) {
                return false;
            }
        }
        return true;
    }

    long checkpointId() {
        return checkpointId;
    }

    /** Ends the alignment: every channel is read again. */
    void alignmentDone() {
        aligning = false;
        resetAlignment();
    }

    private void resetAlignment() {
        for (InputChannel in : inputs) {
            in.blocked = false;
            in.delivered = false;
        }
    }

    // ---- in-flight sizing ----

    private InFlightSizing sizing;
    private boolean[] paused;

    /** From now on, bounds each channel to about {@code targetNanos} of this subtask's reading. */
    void sizeChannels(long targetNanos, long now) {
        Channel[] channels = new Channel[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            channels[i] = inputs[i].channel;
        }
        sizing = new InFlightSizing(channels, targetNanos, now);
        paused = new boolean[inputs.length];
    }

    /** Recomputes the channels' bounds if a sizing period has passed; {@code idleNanos}: the subtask's input wait so far. */
    void resizeIfDue(long now, long idleNanos) {
        if (sizing != null && sizing.due(now)) {
            for (int i = 0; i < inputs.length; i++) {
                paused[i] = inputs[i].blocked || inputs[i].ended;
            }
            sizing.resize(now, idleNanos, paused);
        }
    }
}
