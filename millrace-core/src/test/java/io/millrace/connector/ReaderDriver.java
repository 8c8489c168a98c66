package io.millrace.connector;

import io.millrace.api.source.InputStatus;
import io.millrace.api.source.SourceReader;

/** Polls readers in tests, with a bound on the number of polls so that a broken reader fails fast. */
public final class ReaderDriver {
    private ReaderDriver() {}

    /** Polls until END_OF_INPUT; fails after {@code maxPolls} polls. */
    public static <T> void drain(SourceReader<T, ?> reader, RecordingOutput<T> out, int maxPolls) throws Exception {
        for (int i = 0; i < maxPolls; i++) {
            if (reader.pollNext(out) == InputStatus.END_OF_INPUT) {
                return;
            }
        }
        throw new AssertionError("reader did not end within " + maxPolls + " polls");
    }

    /** Polls until at least {@code count} records were emitted in total; fails after {@code maxPolls} polls. */
    public static <T> InputStatus pollUntil(SourceReader<T, ?> reader, RecordingOutput<T> out, int count, int maxPolls)
            throws Exception {
        InputStatus status = InputStatus.MORE_AVAILABLE;
        for (int i = 0; i < maxPolls && out.values.size() < count; i++) {
            status = reader.pollNext(out);
            if (status == InputStatus.END_OF_INPUT) {
                return status;
            }
        }
        return status;
    }
}
