package io.millrace.api.sink;

import java.io.PrintStream;

/** Writes each record's {@code toString()} on a line of standard output, after an optional prefix. */
public final class PrintSink<T> implements Sink<T> {
    private final String prefix;

    public PrintSink(String prefix) {
        this.prefix = prefix == null ? "" : prefix;
    }

    @Override
    public SinkWriter<T> createWriter(SinkContext context) {
        PrintStream out = System.out;
        String p = context.parallelism() > 1 ? prefix + (context.subtaskIndex() + 1) + "> " : prefix;
        return new SinkWriter<>() {
            @Override
            public void write(T value, long timestamp) {
                out.println(p + value);
            }

            @Override
            public void flush(boolean endOfInput) {
                out.flush();
            }

            @Override
            public void close() {
                out.flush();
            }
        };
    }
}
