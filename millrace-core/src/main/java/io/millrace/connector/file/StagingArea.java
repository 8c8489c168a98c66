package io.millrace.connector.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file names of one {@link TransactionalFileSink} (one part prefix) in its output directory and in
 * the hidden staging directory {@code <output>/.in-progress}:
 *
 * <pre>
 * .in-progress/&lt;prefix&gt;-&lt;subtask&gt;-open-&lt;k&gt;.inprogress      being written; never referenced by a checkpoint
 * .in-progress/&lt;prefix&gt;-&lt;subtask&gt;-&lt;checkpoint&gt;-&lt;n&gt;.pending  prepared for checkpoint &lt;checkpoint&gt;
 * &lt;prefix&gt;-&lt;subtask&gt;-&lt;checkpoint&gt;-&lt;n&gt;.&lt;extension&gt;            committed
 * </pre>
 *
 * Every name is derived from the prefix, the subtask and the checkpoint id, so that a restarted job finds
 * what an earlier run left. Immutable.
 */
final class StagingArea {
    static final String DIRECTORY = ".in-progress";

    /** A file of this sink found on disk; {@code checkpointId} is -1 for an open (in-progress) file. */
    record Entry(Path path, int subtask, long checkpointId) {
        boolean isOpen() {
            return checkpointId < 0;
        }
    }

    private final Path output;
    private final Path staging;
    private final String prefix;
    private final String extension;
    private final Pattern stagedName;
    private final Pattern finalName;

    StagingArea(Path output, String prefix, String extension) {
        this.output = output;
        this.staging = output.resolve(DIRECTORY);
        this.prefix = prefix;
        this.extension = extension;
        String p = Pattern.quote(prefix) + "-(\\d+)-";
        this.stagedName = Pattern.compile(p + "(?:open-\\d+\\.inprogress|(\\d+)-\\d+\\.pending)");
        this.finalName = Pattern.compile(p + "(\\d+)-\\d+\\." + Pattern.quote(extension));
    }

    Path staging() {
        return staging;
    }

    Path openFile(int subtask, int k) {
        return staging.resolve(prefix + "-" + subtask + "-open-" + k + ".inprogress");
    }

    Path pendingFile(int subtask, long checkpointId, int n) {
        return staging.resolve(prefix + "-" + subtask + "-" + checkpointId + "-" + n + ".pending");
    }

    Path finalFile(int subtask, long checkpointId, int n) {
        return output.resolve(prefix + "-" + subtask + "-" + checkpointId + "-" + n + "." + extension);
    }

    /** Open and pending files of this sink in the staging directory (none if it does not exist). */
    List<Entry> staged() throws IOException {
        return scan(staging, stagedName);
    }

    /** Committed files of this sink in the output directory. */
    List<Entry> committed() throws IOException {
        return scan(output, finalName);
    }

    private static List<Entry> scan(Path dir, Pattern name) throws IOException {
        List<Entry> entries = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                Matcher m = name.matcher(file.getFileName().toString());
                if (m.matches()) {
                    long checkpointId = m.group(2) == null ? -1 : Long.parseLong(m.group(2));
                    entries.add(new Entry(file, Integer.parseInt(m.group(1)), checkpointId));
                }
            }
        }
        return entries;
    }

    /**
     * True if files named for {@code subtask} belong to subtask {@code index} of {@code parallelism}: its
     * own, and those of subtasks that no longer exist after a decrease of parallelism ({@code subtask >=
     * parallelism} and {@code subtask % parallelism == index}).
     */
    static boolean ownedBy(int subtask, int index, int parallelism) {
        return subtask == index || (subtask >= parallelism && subtask % parallelism == index);
    }

    /** Forces a directory's entries (creations, renames, deletions) to the disk. */
    static void sync(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
