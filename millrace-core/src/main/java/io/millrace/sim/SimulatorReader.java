package io.millrace.sim;

import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the machine groups of one subtask. Groups take turns, one per poll; a group that is ahead of
 * the clock yields its turn, and the reader returns NOTHING_AVAILABLE only when all are ahead. Called by
 * the subtask's thread only.
 */
final class SimulatorReader implements SourceReader<FactoryEvent, MachineGroupSplit> {
    /** The most events emitted per poll. */
    static final int BATCH = 512;

    private final SimulatorConfig config;
    private final Clock clock;
    private final List<GroupCursor> cursors = new ArrayList<>();
    private int turn;
    private boolean noMoreSplits;

    SimulatorReader(SimulatorConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    @Override
    public void addSplits(List<MachineGroupSplit> splits) {
        for (MachineGroupSplit split : splits) {
            cursors.add(new GroupCursor(config, split));
        }
    }

    @Override
    public void noMoreSplits() {
        noMoreSplits = true;
    }

    @Override
    public InputStatus pollNext(ReaderOutput<FactoryEvent> output) {
        for (int tries = cursors.size(); tries > 0; tries--) {
            turn = turn % cursors.size();
            GroupCursor cursor = cursors.get(turn);
            GroupCursor.Progress progress = cursor.poll(output, clock, BATCH);
            if (progress == GroupCursor.Progress.DONE) {
                output.releaseSplit(cursor.splitId());
                cursors.remove(turn);
                return cursors.isEmpty() && noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.MORE_AVAILABLE;
            }
            turn++;
            if (progress == GroupCursor.Progress.ADVANCED) {
                return InputStatus.MORE_AVAILABLE;
            }
        }
        return cursors.isEmpty() && noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public List<MachineGroupSplit> snapshotState() {
        List<MachineGroupSplit> state = new ArrayList<>(cursors.size());
        for (GroupCursor cursor : cursors) {
            state.add(cursor.snapshot());
        }
        return state;
    }

    @Override
    public void close() {
        cursors.clear();
    }
}
