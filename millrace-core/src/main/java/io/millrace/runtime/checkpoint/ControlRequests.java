package io.millrace.runtime.checkpoint;

import io.millrace.api.JobHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job side of the control directory: finds {@link ControlRequest} files, asks the job for the
 * savepoint, and writes the {@link ControlResponse} when the savepoint is done (or has failed). A request
 * is acted on once per process: one seen before, or one that already has a response, is left alone; one
 * written before the job started is deleted unread ({@link #discardEarlierRequests()}).
 * Responses whose request is gone (the requester gave up or has read them) are deleted.
 *
 * <p>Thread use: {@link #tick()} is called by the checkpoint coordinator's trigger thread, outside the
 * coordinator's lock (it takes this object's lock, then the coordinator's when it asks for a savepoint); responses are written by whichever thread completes the savepoint; {@link #awaitAnswers()} by a
 * thread that waits for the job to end.
 */
public final class ControlRequests {
    private static final Logger LOG = LoggerFactory.getLogger(ControlRequests.class);
    /** Ticks of the trigger thread (20 ms each) between two looks at the directory: 200 ms. */
    static final int TICKS_PER_POLL = 10;
    private static final int ANSWER_WAIT_MILLIS = 100;
    private static final int ANSWER_WAITS = 50;

    private final Path directory;
    private final JobHandle job;
    private final Set<String> seen = new HashSet<>(); // guarded by this
    private final Object answers = new Object(); // guards unanswered; held while nothing else is taken
    private int ticks; // guarded by this
    private int unanswered;

    /** Watches {@code directory} (which need not exist yet) for requests to {@code job}. */
    public ControlRequests(Path directory, JobHandle job) {
        this.directory = directory;
        this.job = job;
    }

    /**
     * Deletes the requests already in the directory when the job starts: they were meant for an earlier job
     * (their requester gave up or was killed) and must not stop this one. Called once, before the first tick.
     */
    public synchronized void discardEarlierRequests() {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                if (ControlRequest.fromFileName(file.getFileName().toString()).isPresent()) {
                    LOG.warn("job '{}': ignoring {}, written before the job started", job.jobName(), file);
                    deleteQuietly(file);
                }
            }
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            LOG.warn("cannot read the control directory {}: {}", directory, e.toString());
        }
    }

    /** One tick of the trigger thread; every {@value #TICKS_PER_POLL}th looks at the directory. */
    public synchronized void tick() {
        if (++ticks >= TICKS_PER_POLL) {
            ticks = 0;
            poll();
        }
    }

    /** Acts on every new request in the directory; I/O failures are logged and retried at the next poll. */
    synchronized void poll() {
        List<String> names;
        try (Stream<Path> files = Files.list(directory)) {
            names = files.map(f -> f.getFileName().toString()).toList();
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            LOG.warn("cannot read the control directory {}: {}", directory, e.toString());
            return;
        }
        Set<String> present = new HashSet<>(names);
        for (String name : names) {
            if (name.endsWith(ControlRequest.RESPONSE_SUFFIX)) {
                String request = name.substring(0, name.length() - ControlRequest.RESPONSE_SUFFIX.length()) + ControlRequest.REQUEST_SUFFIX;
                if (!present.contains(request)) {
                    deleteQuietly(directory.resolve(name));
                }
                continue;
            }
            Optional<ControlRequest> request = ControlRequest.fromFileName(name);
            if (request.isPresent() && !present.contains(request.get().responseFileName()) && seen.add(name)) {
                accept(request.get());
            }
        }
    }

    private void accept(ControlRequest request) {
        LOG.info("job '{}': {} requested through {}", job.jobName(), request.kind(), directory.resolve(request.requestFileName()));
        synchronized (answers) {
            unanswered++;
        }
        CompletableFuture<String> savepoint;
        try {
            savepoint = request.kind() == ControlRequest.Kind.SAVEPOINT ? job.triggerSavepoint() : job.stopWithSavepoint();
        } catch (RuntimeException e) {
            savepoint = CompletableFuture.failedFuture(e);
        }
        savepoint.whenComplete((path, failure) -> answer(request, path, failure));
    }

    private void answer(ControlRequest request, String path, Throwable failure) {
        try {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            ControlResponse response = cause == null ? ControlResponse.success(path) : ControlResponse.failure(cause.getMessage());
            response.writeTo(directory.resolve(request.responseFileName()));
        } catch (IOException | RuntimeException e) {
            LOG.warn("job '{}': cannot answer {} in {}: {}", job.jobName(), request.requestFileName(), directory, e.toString());
        } finally {
            synchronized (answers) {
                unanswered--;
                answers.notifyAll();
            }
        }
    }

    /**
     * Waits, at most about five seconds, until every accepted request has its response written: a process
     * that exits when its job ends calls it first, so that the answer to a stop-with-savepoint is not lost.
     */
    public void awaitAnswers() throws InterruptedException {
        synchronized (answers) {
            for (int i = 0; i < ANSWER_WAITS && unanswered > 0; i++) {
                answers.wait(ANSWER_WAIT_MILLIS);
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("cannot delete {}: {}", file, e.toString());
        }
    }
}
