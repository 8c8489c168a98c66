package io.millrace.server.sql;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Shows the rows of a running query. The sink subtasks of the query's job call {@link #accept} (from their own
 * threads, so every method is synchronized); the client calls {@link #refresh} and {@link #finish}.
 */
abstract class QueryView {
    protected final RowType type;
    protected final PrintWriter out;
    protected long received;

    QueryView(RowType type, PrintWriter out) {
        this.type = type;
        this.out = out;
    }

    static QueryView of(ResultMode mode, RowType type, PrintWriter out, Runnable clearScreen) {
        return mode == ResultMode.TABLE ? new TableView(type, out, clearScreen) : new ChangelogView(type, out);
    }

    abstract void accept(Row row);

    /** Called about every second while the query runs. */
    abstract void refresh();

    /** Called once when the job has ended ({@code stopped}: by Ctrl-C). */
    abstract void finish(boolean stopped);

    /** A sink that hands every row to {@code view}, as it comes. Used inside this JVM only (the view is not serialized). */
    static Sink<Row> sinkTo(QueryView view) {
        return new ViewSink(view);
    }

    private static final class ViewSink implements Sink<Row> {
        private static final long serialVersionUID = 1L;
        private final transient QueryView view;

        ViewSink(QueryView view) {
            this.view = view;
        }

        @Override
        public SinkWriter<Row> createWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Row value, long timestamp) {
                    view.accept(value);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    /** Every change on its own line under a header, with the kind in the {@code op} column, printed as it comes. */
    static final class ChangelogView extends QueryView {
        private final int[] width;
        private boolean started;

        ChangelogView(RowType type, PrintWriter out) {
            super(type, out);
            width = new int[type.size() + 1];
            width[0] = 2;
            for (int i = 0; i < type.size(); i++) {
                width[i + 1] = Math.max(type.name(i).length(), 10);
            }
        }

        private void header() {
            if (!started) {
                started = true;
                String[] names = new String[width.length];
                names[0] = "op";
                for (int i = 0; i < type.size(); i++) {
                    names[i + 1] = type.name(i);
                }
                out.print(ResultFormat.border(width) + ResultFormat.cells(names, width) + ResultFormat.border(width));
            }
        }

        @Override
        synchronized void accept(Row row) {
            header();
            String[] cells = new String[width.length];
            cells[0] = row.kind().shortString();
            int[] w = width.clone();
            for (int i = 0; i < type.size(); i++) {
                cells[i + 1] = ResultFormat.text(row, i);
                w[i + 1] = Math.max(w[i + 1], cells[i + 1].length());
            }
            out.print(ResultFormat.cells(cells, w));
            out.flush();
            received++;
        }

        @Override
        synchronized void refresh() {
            out.flush();
        }

        @Override
        synchronized void finish(boolean stopped) {
            header();
            out.print(ResultFormat.border(width));
            out.println((stopped ? "Query stopped after " : "Received ") + received + (received == 1 ? " row" : " rows"));
            out.flush();
        }
    }

    /**
     * The result as a table: inserts and updates ({@code +I}, {@code +U}) add their row, retractions ({@code -U},
     * {@code -D}) remove an equal row, or, for a delete that carries only its key (an upsert tombstone), the latest row
     * that agrees with it on every field it has.
     */
    static final class TableView extends QueryView {
        private final List<Row> rows = new ArrayList<>();
        private final Runnable clearScreen;
        private long shownAt = -1;

        TableView(RowType type, PrintWriter out, Runnable clearScreen) {
            super(type, out);
            this.clearScreen = clearScreen;
        }

        @Override
        synchronized void accept(Row row) {
            received++;
            Row asInsert = row.kind() == RowKind.INSERT ? row : row.withKind(RowKind.INSERT);
            switch (row.kind()) {
                case INSERT, UPDATE_AFTER -> rows.add(asInsert);
                default -> {
                    if (!rows.remove(asInsert)) {
                        for (int i = rows.size() - 1; i >= 0; i--) {
                            if (agrees(rows.get(i), row)) {
                                rows.remove(i);
                                break;
                            }
                        }
                    }
                }
            }
        }

        private static boolean agrees(Row held, Row partial) {
            for (int i = 0; i < partial.type().size(); i++) {
                if (!partial.isNullAt(i) && !partial.getField(i).equals(held.getField(i))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        synchronized void refresh() {
            if (clearScreen != null && received != shownAt) {
                shownAt = received;
                clearScreen.run();
                out.print(ResultFormat.table(type, rows, false));
                out.println("(refreshed every second; Ctrl-C stops the query)");
                out.flush();
            }
        }

        @Override
        synchronized void finish(boolean stopped) {
            if (clearScreen != null) {
                clearScreen.run();
            }
            out.print(ResultFormat.table(type, rows, false));
            out.println((stopped ? "Query stopped after " : "Query ended after ") + received + (received == 1 ? " change" : " changes"));
            out.flush();
        }
    }
}
