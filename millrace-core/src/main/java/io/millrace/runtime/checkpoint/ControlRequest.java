package io.millrace.runtime.checkpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A request to a running job through its control directory ({@code <checkpoint dir>/control/}): a file
 * {@code savepoint-<id>.request} or {@code stop-with-savepoint-<id>.request}, answered by the job with
 * {@code <same name>.response} (a {@link ControlResponse}). Both files appear atomically (written under
 * a temporary name, then renamed). The id is chosen by the requester; one id is acted on at most once.
 */
public record ControlRequest(Kind kind, String id) {
    /** The name of the control directory under a job's checkpoint directory. */
    public static final String DIRECTORY = "control";
    static final String REQUEST_SUFFIX = ".request";
    static final String RESPONSE_SUFFIX = ".response";

    /** What the job is asked to do. */
    public enum Kind {
        /** {@link io.millrace.api.JobHandle#triggerSavepoint()}. */
        SAVEPOINT("savepoint-"),
        /** {@link io.millrace.api.JobHandle#stopWithSavepoint()}. */
        STOP_WITH_SAVEPOINT("stop-with-savepoint-");

        final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    public ControlRequest {
        if (id.isEmpty() || !id.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_')) {
            throw new IllegalArgumentException("a control request id is letters, digits, '-' and '_': '" + id + "'");
        }
    }

    /** The control directory of the job whose checkpoint directory is {@code checkpointDirectory}. */
    public static Path directoryOf(Path checkpointDirectory) {
        return checkpointDirectory.resolve(DIRECTORY);
    }

    /** The request a file name stands for, if it names one. */
    static Optional<ControlRequest> fromFileName(String name) {
        if (!name.endsWith(REQUEST_SUFFIX)) {
            return Optional.empty();
        }
        String base = name.substring(0, name.length() - REQUEST_SUFFIX.length());
        for (Kind kind : new Kind[] {Kind.STOP_WITH_SAVEPOINT, Kind.SAVEPOINT}) {
            if (base.startsWith(kind.prefix) && base.length() > kind.prefix.length()) {
                try {
                    return Optional.of(new ControlRequest(kind, base.substring(kind.prefix.length())));
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    public String requestFileName() {
        return kind.prefix + id + REQUEST_SUFFIX;
    }

    public String responseFileName() {
        return kind.prefix + id + RESPONSE_SUFFIX;
    }

    /** Makes the request file appear in {@code controlDirectory} (created if missing) atomically. */
    public void send(Path controlDirectory) throws IOException {
        Files.createDirectories(controlDirectory);
        DurableFiles.writeAtomically(controlDirectory.resolve(requestFileName()),
                ("kind: " + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The job's answer, if it has written one. */
    public Optional<ControlResponse> response(Path controlDirectory) throws IOException {
        Path file = controlDirectory.resolve(responseFileName());
        try {
            return Optional.of(ControlResponse.parse(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Deletes the request and its response; what the requester does once it has its answer or gives up. */
    public void withdraw(Path controlDirectory) throws IOException {
        Files.deleteIfExists(controlDirectory.resolve(requestFileName()));
        Files.deleteIfExists(controlDirectory.resolve(responseFileName()));
    }
}
