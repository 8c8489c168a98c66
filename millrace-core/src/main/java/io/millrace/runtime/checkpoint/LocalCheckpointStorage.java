package io.millrace.runtime.checkpoint;

import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints and savepoints in directories of the local file system.
 *
 * <pre>
 * &lt;directory&gt;/checkpoints/              the root; StateHandle paths are relative to it
 *   chk-11/                              complete: has _metadata
 *     _metadata                          JSON, see {@link MetadataFormat}
 *     map-1-0.keyed                      state files, names from the caller made safe ({@link StateFileName})
 *   chk-12/                              in progress or abandoned: no _metadata (maybe _metadata.tmp)
 *   shared/                              files of incremental checkpoints, each written once and
 *     op-0-5c1d…-000012.sst              referenced by the metadata of every checkpoint that needs it
 *   _restored-from                       the {@link RestoreLineage}, once a job was started from a savepoint
 * &lt;savepointDirectory&gt;/
 *   savepoint-12-3f9a0c1e/               self-contained: _metadata and the state files, movable as a whole
 * </pre>
 *
 * <p>A checkpoint exists once its {@code _metadata} does, and that file appears atomically (written as
 * {@code _metadata.tmp}, synced, renamed, directory synced). State files are synced when their writer
 * finishes. A savepoint is committed by moving the checkpoint's directory into the savepoint directory
 * (copying if it is on another file system), so retention never sees it. Before {@link #latest} or
 * {@link #load} hands out a checkpoint, its metadata checksum and the size and CRC-32 of every state file
 * are verified; a damaged one is skipped with a warning naming the file.
 *
 * <p>Threads: any number of subtask threads create and write state files concurrently; commit, discard and
 * retain are meant for the coordinator thread. They share one lock, which state file creation takes only
 * the first time a checkpoint id is seen. A directory without metadata that this instance did not start is
 * left over from an earlier process: it is replaced when its id is started again and deleted by
 * {@link #retain}. Checkpoint ids must not be reused within one instance unless the id was discarded.
 *
 * <p>Shared files: a file in {@code shared/} is kept while the metadata of a complete checkpoint, or a
 * checkpoint this instance has in progress ({@link #createSharedFile}, {@link #reuseSharedFile}), refers
 * to it. {@link #retain} and {@link #discard} delete the others. The references are found by reading the
 * complete checkpoints' metadata each time, so there is no count to get out of step: a crash between a
 * commit and the deletion leaves files that the next {@code retain} deletes. When some complete
 * checkpoint's metadata cannot be read, nothing shared is deleted.
 */
public final class LocalCheckpointStorage implements CheckpointStorage {
    static final String CHECKPOINTS = "checkpoints";
    private static final Logger LOG = LoggerFactory.getLogger(LocalCheckpointStorage.class);

    private final Path root;
    private final SavepointDirectory savepointDirectory;
    private final CheckpointVerifier verifier;
    private final Map<Long, CheckpointDirectory> started = new ConcurrentHashMap<>();
    private final Map<Long, Path> savepoints = new ConcurrentHashMap<>();
    /** Shared files (handle paths) that checkpoints in progress refer to, by checkpoint id; guarded by {@code this}. */
    private final Map<Long, Set<String>> sharedInUse = new HashMap<>();

    /** Checkpoints under {@code directory/checkpoints}, savepoints under {@code directory/savepoints}. */
    public LocalCheckpointStorage(Path directory) throws IOException {
        this(directory, directory.resolve("savepoints"));
    }

    /** Checkpoints under {@code directory/checkpoints}, savepoints under {@code savepointDirectory}. */
    public LocalCheckpointStorage(Path directory, Path savepointDirectory) throws IOException {
        this.root = directory.resolve(CHECKPOINTS).toAbsolutePath().normalize();
        this.savepointDirectory = new SavepointDirectory(savepointDirectory.toAbsolutePath().normalize());
        this.verifier = new CheckpointVerifier(root);
        Files.createDirectories(root);
    }

    /** The directory holding the {@code chk-<id>} directories. */
    public Path checkpointRoot() {
        return root;
    }

    /** Where savepoint {@code checkpointId} was committed by this instance, if it was. */
    public Optional<Path> savepointPath(long checkpointId) {
        return Optional.ofNullable(savepoints.get(checkpointId));
    }

    @Override
    public StateFileWriter createStateFile(long checkpointId, String name) throws IOException {
        CheckpointDirectory directory = started.get(checkpointId);
        if (directory == null) {
            directory = start(checkpointId);
        }
        String fileName = StateFileName.of(name);
        return new LocalStateFileWriter(directory.path().resolve(fileName), directory.name() + "/" + fileName);
    }

    @Override
    public StateFileWriter createSharedFile(long checkpointId, String name) throws IOException {
        String fileName = StateFileName.of(name);
        String handlePath = MetadataFormat.SHARED + "/" + fileName;
        synchronized (this) {
            start(checkpointId);
            Files.createDirectories(root.resolve(MetadataFormat.SHARED));
            sharedInUse.computeIfAbsent(checkpointId, id -> new HashSet<>()).add(handlePath);
        }
        return new LocalStateFileWriter(root.resolve(handlePath), handlePath);
    }

    @Override
    public synchronized boolean reuseSharedFile(long checkpointId, StateHandle handle) throws IOException {
        if (!isSharedPath(handle.path())) {
            return false;
        }
        Path file = root.resolve(handle.path());
        if (!Files.isRegularFile(file) || Files.size(file) != handle.size()) {
            return false;
        }
        start(checkpointId);
        sharedInUse.computeIfAbsent(checkpointId, id -> new HashSet<>()).add(handle.path());
        return true;
    }

    @Override
    public InputStream openStateFile(StateHandle handle) throws IOException {
        return VerifyingStateInput.open(root.resolve(handle.path()), handle.path(), handle);
    }

    @Override
    public synchronized void commit(CheckpointMetadata metadata) throws IOException {
        CheckpointDirectory directory = CheckpointDirectory.of(root, metadata.checkpointId());
        if (directory.isComplete()) {
            throw new IOException("checkpoint " + metadata.checkpointId() + " is already complete: " + directory.metadataFile());
        }
        for (StateHandle handle : CheckpointVerifier.handles(metadata)) {
            if (metadata.savepoint() && isSharedPath(handle.path())) {
                throw new IllegalArgumentException("savepoint " + metadata.checkpointId() + " refers to shared file " + handle.path()
                        + ": savepoints must be self-contained");
            }
            if (isSharedPath(handle.path())) {
                checkShared(metadata.checkpointId(), handle);
            } else {
                checkWritten(directory, handle);
            }
        }
        byte[] content = MetadataFormat.write(metadata, handle -> handle.path().substring(directory.name().length() + 1));
        if (metadata.savepoint()) {
            savepoints.put(metadata.checkpointId(), savepointDirectory.commit(directory, content));
        } else {
            Files.createDirectories(directory.path());
            DurableFiles.writeAtomically(directory.metadataFile(), content);
            DurableFiles.syncDirectory(root);
        }
        started.remove(metadata.checkpointId());
        sharedInUse.remove(metadata.checkpointId());
    }

    @Override
    public Optional<String> savepointPointer(long checkpointId) {
        return savepointPath(checkpointId).map(Path::toString);
    }

    @Override
    public Optional<RestoreLineage> lineage() throws IOException {
        Path file = root.resolve(RestoreLineage.FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(RestoreLineage.parse(Files.readAllBytes(file)));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void recordLineage(RestoreLineage lineage) throws IOException {
        DurableFiles.writeAtomically(root.resolve(RestoreLineage.FILE), lineage.toBytes());
    }

    @Override
    public Optional<CheckpointMetadata> latest(long minId, Consumer<String> warnings) throws IOException {
        List<String> skipped = new ArrayList<>();
        List<CheckpointDirectory> directories = list();
        for (int i = directories.size() - 1; i >= 0 && directories.get(i).id() >= minId; i--) {
            CheckpointDirectory directory = directories.get(i);
            if (directory.isCommitPending()) {
                skipped.add("checkpoint " + directory.id() + " is incomplete (" + directory.name() + "/"
                        + CheckpointDirectory.PENDING_METADATA + " was never committed)");
            } else if (directory.isComplete()) {
                try {
                    CheckpointMetadata metadata = verifier.read(directory.path());
                    skipped.forEach(s -> warnings.accept(s + "; using checkpoint " + directory.id()));
                    return Optional.of(metadata);
                } catch (CheckpointFileDamagedException e) {
                    skipped.add("checkpoint " + directory.id() + " is damaged (" + e.getMessage() + ")");
                }
            }
        }
        skipped.forEach(s -> warnings.accept(s + "; no intact checkpoint is left"));
        return Optional.empty();
    }

    @Override
    public CheckpointMetadata load(String pointer) throws IOException {
        Path path = Path.of(pointer).toAbsolutePath().normalize();
        Path directory = path.getFileName() != null && path.getFileName().toString().equals(CheckpointDirectory.METADATA)
                ? path.getParent()
                : path;
        if (!Files.isDirectory(directory)) {
            throw new IOException("no checkpoint or savepoint at " + pointer + " (" + directory + " is not a directory)");
        }
        if (!Files.isRegularFile(directory.resolve(CheckpointDirectory.METADATA))) {
            throw new IOException(pointer + " is not a complete checkpoint or savepoint (no " + CheckpointDirectory.METADATA + " in " + directory + ")");
        }
        try {
            return verifier.read(directory);
        } catch (CheckpointFileDamagedException e) {
            throw new IOException("the checkpoint or savepoint at " + directory + " is damaged: " + e.getMessage(), e);
        }
    }

    @Override
    public List<Long> completed() throws IOException {
        return list().stream().filter(CheckpointDirectory::isComplete).map(CheckpointDirectory::id).toList();
    }

    @Override
    public synchronized void discard(long checkpointId) throws IOException {
        delete(checkpointId);
        deleteUnreferencedSharedFiles();
    }

    @Override
    public synchronized void retain(int count) throws IOException {
        if (count < 1) {
            throw new IllegalArgumentException("retained checkpoints must be at least 1, not " + count);
        }
        List<CheckpointDirectory> directories = list();
        List<CheckpointDirectory> complete = directories.stream().filter(CheckpointDirectory::isComplete).toList();
        long newest = complete.isEmpty() ? Long.MIN_VALUE : complete.get(complete.size() - 1).id();
        for (int i = 0; i < complete.size() - count; i++) {
            delete(complete.get(i).id());
        }
        for (CheckpointDirectory directory : directories) {
            boolean abandoned = !directory.isComplete() && (directory.id() < newest || !started.containsKey(directory.id()));
            if (abandoned) {
                delete(directory.id());
            }
        }
        deleteUnreferencedSharedFiles();
    }

    /** Names of the files in the shared area, for tests and tools. */
    public List<String> sharedFiles() throws IOException {
        Path shared = root.resolve(MetadataFormat.SHARED);
        if (!Files.isDirectory(shared)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(shared)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private void delete(long checkpointId) throws IOException {
        started.remove(checkpointId);
        sharedInUse.remove(checkpointId);
        CheckpointDirectory directory = CheckpointDirectory.of(root, checkpointId);
        // Metadata first: a crash half-way leaves an abandoned directory, not a complete one with files missing.
        Files.deleteIfExists(directory.metadataFile());
        DurableFiles.deleteTree(directory.path());
    }

    /** Deletes the shared files that no complete checkpoint and no checkpoint in progress refers to. */
    private void deleteUnreferencedSharedFiles() throws IOException {
        List<String> files = sharedFiles();
        if (files.isEmpty()) {
            return;
        }
        Set<String> referenced = new HashSet<>();
        sharedInUse.values().forEach(referenced::addAll);
        for (CheckpointDirectory directory : list()) {
            if (!directory.isComplete()) {
                continue;
            }
            CheckpointMetadata metadata;
            try {
                metadata = MetadataFormat.read(Files.readAllBytes(directory.metadataFile()), name -> name);
            } catch (IOException e) {
                LOG.warn("shared checkpoint files are kept: the metadata of checkpoint {} cannot be read ({})", directory.id(), e.getMessage());
                return;
            }
            for (StateHandle handle : CheckpointVerifier.handles(metadata)) {
                referenced.add(handle.path());
            }
        }
        for (String name : files) {
            String path = MetadataFormat.SHARED + "/" + name;
            if (!referenced.contains(path)) {
                Files.deleteIfExists(root.resolve(path));
            }
        }
    }

    private static boolean isSharedPath(String path) {
        String prefix = MetadataFormat.SHARED + "/";
        return path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0 && path.length() > prefix.length();
    }

    /** A shared file a checkpoint being committed refers to: written or claimed for it, and still of its size. */
    private void checkShared(long checkpointId, StateHandle handle) throws IOException {
        Set<String> inUse = sharedInUse.get(checkpointId);
        if (inUse == null || !inUse.contains(handle.path())) {
            throw new IOException("shared file " + handle.path() + " was neither written nor claimed for checkpoint " + checkpointId);
        }
        try {
            long size = Files.size(root.resolve(handle.path()));
            if (size != handle.size()) {
                throw new IOException("shared file " + handle.path() + " has " + size + " bytes, its handle says " + handle.size());
            }
        } catch (NoSuchFileException e) {
            throw new IOException("shared file " + handle.path() + " of checkpoint " + checkpointId + " does not exist", e);
        }
    }

    /** Prepares the directory of a checkpoint this instance writes for the first time. */
    private synchronized CheckpointDirectory start(long checkpointId) throws IOException {
        CheckpointDirectory directory = started.get(checkpointId);
        if (directory != null) {
            return directory;
        }
        directory = CheckpointDirectory.of(root, checkpointId);
        if (directory.isComplete()) {
            throw new IOException("checkpoint " + checkpointId + " is already complete: " + directory.metadataFile());
        }
        DurableFiles.deleteTree(directory.path());
        Files.createDirectories(directory.path());
        started.put(checkpointId, directory);
        return directory;
    }

    private void checkWritten(CheckpointDirectory directory, StateHandle handle) throws IOException {
        String prefix = directory.name() + "/";
        if (!handle.path().startsWith(prefix) || handle.path().indexOf('/', prefix.length()) >= 0) {
            throw new IllegalArgumentException("state file " + handle.path() + " does not belong to checkpoint " + directory.id());
        }
        try {
            long size = Files.size(root.resolve(handle.path()));
            if (size != handle.size()) {
                throw new IOException("state file " + handle.path() + " has " + size + " bytes, its handle says " + handle.size());
            }
        } catch (NoSuchFileException e) {
            throw new IOException("state file " + handle.path() + " of checkpoint " + directory.id() + " does not exist", e);
        }
    }

    /** The checkpoint directories under the root, by ascending id. */
    private List<CheckpointDirectory> list() throws IOException {
        List<CheckpointDirectory> directories = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry)) {
                    CheckpointDirectory.parse(entry).ifPresent(directories::add);
                }
            }
        }
        directories.sort(Comparator.comparingLong(CheckpointDirectory::id));
        return directories;
    }
}
