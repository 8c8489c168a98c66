package io.millrace.connector.file;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.connector.pacing.RateLimit;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A bounded source of text files read line by line in a {@link LineFormat} (JSON lines, CSV). The paths
 * are files or directories; a directory stands for the regular files in it (not its subdirectories,
 * not hidden files, optionally only those matching a glob), sorted by name. Each file is one split,
 * read in order by one reader; its position is a byte offset and line number, so a reader restored from
 * a snapshot continues after the last record emitted. Records carry no timestamp: give the watermark
 * strategy a timestamp assigner.
 *
 * <p>A record that cannot be decoded is reported as a {@link io.millrace.api.source.BadRecord} located at
 * {@code <file>:<line>}, for the source's bad-record policy. A missing or unreadable file fails the reader
 * with an error naming the path.
 *
 * <p>Unpaced by default; {@link Builder#ratePerSecond} replays a recorded file at a fixed rate by the reader
 * context's {@link io.millrace.api.time.Clock}. Pacing holds back processing time only: event time still comes
 * from the records, so the watermarks advance as fast as the paced records carry them.
 *
 * <pre>{@code
 * FileSource<JsonNode> events = FileSource.of(JsonLines.nodes(), Path.of("data/events"));
 * FileSource<CsvRow> rows = FileSource.builder(CsvFormat.withHeader()).path(Path.of("a.csv")).glob("*.csv").build();
 * FileSource<JsonNode> replay = FileSource.builder(JsonLines.nodes()).path(Path.of("day.jsonl")).ratePerSecond(5_000).build();
 * }</pre>
 */
public final class FileSource<T> implements Source<T, FileSplit> {
    /** The most records a reader emits per poll. */
    static final int BATCH = 512;

    private final LineFormat<T> format;
    private final List<String> paths;
    private final String glob;
    private final double ratePerSecond;
    /** The pacing origins of the readers of each start of the job, in this process; null until a paced reader is made. */
    private transient RateLimit.Origins origins;

    private FileSource(LineFormat<T> format, List<String> paths, String glob, double ratePerSecond) {
        this.format = format;
        this.paths = paths;
        this.glob = glob;
        this.ratePerSecond = ratePerSecond;
    }

    /** Reads the given files and directories. */
    public static <T> FileSource<T> of(LineFormat<T> format, Path... paths) {
        Builder<T> b = builder(format);
        for (Path p : paths) {
            b.path(p);
        }
        return b.build();
    }

    public static <T> Builder<T> builder(LineFormat<T> format) {
        return new Builder<>(format);
    }

    @Override
    public io.millrace.api.source.VersionedCodec<FileSplit> splitCodec() {
        return new FileSplitCodec();
    }

    /** Version 1: the split's fields in declaration order. */
    static final class FileSplitCodec extends io.millrace.api.source.DataCodec<FileSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(FileSplit s, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeUTF(s.path());
            out.writeLong(s.offset());
            out.writeLong(s.line());
        }

        @Override
        protected FileSplit read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new FileSplit(in.readUTF(), in.readLong(), in.readLong());
        }
    }

    @Override
    public Boundedness boundedness() {
        return Boundedness.BOUNDED;
    }

    /** The number of files when only files were given (more readers would idle), else -1. */
    @Override
    public int maxParallelism() {
        for (String p : paths) {
            if (Files.isDirectory(Path.of(p))) {
                return -1;
            }
        }
        return paths.size();
    }

    /**
     * One split per file, in the order of the paths and by name within a directory.
     *
     * @throws NoSuchFileException naming the path if a path does not exist
     */
    @Override
    public List<FileSplit> createSplits(int parallelism) throws IOException {
        List<FileSplit> splits = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String p : paths) {
            Path path = Path.of(p);
            if (Files.isDirectory(path)) {
                for (Path file : list(path)) {
                    add(splits, seen, file.toString());
                }
            } else if (Files.exists(path)) {
                add(splits, seen, p);
            } else {
                throw new NoSuchFileException(p, null, "file source input does not exist");
            }
        }
        return splits;
    }

    private List<Path> list(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = glob == null ? Files.newDirectoryStream(dir) : Files.newDirectoryStream(dir, glob)) {
            for (Path file : stream) {
                if (Files.isRegularFile(file) && !file.getFileName().toString().startsWith(".")) {
                    files.add(file);
                }
            }
        }
        files.sort(null);
        return files;
    }

    private static void add(List<FileSplit> splits, Set<String> seen, String path) {
        if (!seen.add(path)) {
            throw new IllegalArgumentException("file source input " + path + " is given twice");
        }
        splits.add(FileSplit.start(path));
    }

    /** Records per second over all readers, or positive infinity when not paced. */
    public double ratePerSecond() {
        return ratePerSecond;
    }

    @Override
    public SourceReader<T, FileSplit> createReader(SourceReaderContext context) {
        RateLimit limit = Double.isInfinite(ratePerSecond)
                ? null
                : new RateLimit(context.clock(), ratePerSecond / context.parallelism(), originFor(context.parallelism()));
        return new FileSourceReader<>(format, context.sourceName(), limit);
    }

    private synchronized RateLimit.Origin originFor(int parallelism) {
        if (origins == null) {
            origins = new RateLimit.Origins();
        }
        return origins.join(parallelism);
    }

    /** Options of a {@link FileSource}. */
    public static final class Builder<T> {
        private final LineFormat<T> format;
        private final List<String> paths = new ArrayList<>();
        private String glob;
        private double ratePerSecond = Double.POSITIVE_INFINITY;

        private Builder(LineFormat<T> format) {
            this.format = Objects.requireNonNull(format, "format");
        }

        /** A file, or a directory whose files are read in name order. */
        public Builder<T> path(Path value) {
            paths.add(Objects.requireNonNull(value, "path").toString());
            return this;
        }

        public Builder<T> paths(Path... values) {
            Arrays.stream(values).forEach(this::path);
            return this;
        }

        /** Within directories, only files whose name matches this glob (e.g. {@code *.jsonl}). */
        public Builder<T> glob(String value) {
            this.glob = Objects.requireNonNull(value, "glob");
            return this;
        }

        /**
         * Paces the reading: at most this many records per second over all readers, each of the {@code p} readers
         * reading {@code rate / p} from one origin (the first poll of any of them), as the generator does. Records
         * are counted whether they decode or are bad; blank lines are not. The default is unpaced.
         */
        public Builder<T> ratePerSecond(double value) {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(
                        "option 'ratePerSecond' must be positive and finite (or call unlimitedRate()), was " + value);
            }
            this.ratePerSecond = value;
            return this;
        }

        /** As fast as the pipeline takes the records (the default). */
        public Builder<T> unlimitedRate() {
            this.ratePerSecond = Double.POSITIVE_INFINITY;
            return this;
        }

        public FileSource<T> build() {
            if (paths.isEmpty()) {
                throw new IllegalArgumentException("option 'path' is required: give at least one file or directory");
            }
            return new FileSource<>(format, List.copyOf(paths), glob, ratePerSecond);
        }
    }
}
