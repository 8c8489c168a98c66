package io.millrace.runtime.exchange;

/** Elements that travel in a channel between batches, in order with the records. */
public sealed interface ControlElement
        permits ControlElement.WatermarkElement, ControlElement.IdleStatus, ControlElement.EndOfInput, ControlElement.CheckpointBarrier {

    /** Event time on this channel has reached {@code watermark}. */
    record WatermarkElement(long watermark) implements ControlElement {}

    /** The producer has no data for now (idle = true) or has again (idle = false). */
    record IdleStatus(boolean idle) implements ControlElement {
        public static final IdleStatus IDLE = new IdleStatus(true);
        public static final IdleStatus ACTIVE = new IdleStatus(false);
    }

    /**
     * Everything before this element on the channel belongs to checkpoint {@code checkpointId}, everything
     * after it to the next one. A savepoint is a checkpoint the user asked for, kept until deleted.
     */
    record CheckpointBarrier(long checkpointId, long timestamp, boolean savepoint) implements ControlElement {}

    /** The producer will send nothing more. */
    final class EndOfInput implements ControlElement {
        public static final EndOfInput INSTANCE = new EndOfInput();

        private EndOfInput() {}

        @Override
        public String toString() {
            return "EndOfInput";
        }
    }
}
