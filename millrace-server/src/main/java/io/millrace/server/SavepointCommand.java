package io.millrace.server;

import io.millrace.runtime.checkpoint.ControlRequest;
import io.millrace.runtime.checkpoint.ControlResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code millrace savepoint}: asks the job running with a checkpoint directory (in another process) for a
 * savepoint, through a request file in {@code <checkpoint dir>/control/}, and prints the savepoint's
 * directory once the job has answered.
 */
@Command(
        name = "savepoint",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Takes a savepoint of the job running with checkpoint directory DIR (started with",
            "'millrace run --checkpoint-dir DIR' or embedded) and prints its directory; with",
            "--stop the job stops once the savepoint is complete and committed.",
            "Exit codes: 0 the savepoint's directory was printed; 1 the savepoint failed or no job",
            "answered in time; 2 bad command line."
        })
final class SavepointCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--checkpoint-dir", required = true, paramLabel = "DIR", description = "The running job's checkpoint directory (checkpoint.dir).")
    Path checkpointDir;

    @Option(names = "--stop", description = "Stop the job once the savepoint is complete.")
    boolean stop;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "2m",
            description = "How long to wait for the job's answer, e.g. 30s. Default: 2m.")
    Duration timeout;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(checkpointDir)) {
            err.println("millrace savepoint: " + checkpointDir + " is not a directory: no job runs with it as its checkpoint directory");
            err.flush();
            return 1;
        }
        Path control = ControlRequest.directoryOf(checkpointDir);
        ControlRequest request = new ControlRequest(stop ? ControlRequest.Kind.STOP_WITH_SAVEPOINT : ControlRequest.Kind.SAVEPOINT,
                UUID.randomUUID().toString());
        Thread withdrawOnExit = new Thread(() -> withdrawQuietly(request, control), "millrace-savepoint-withdraw");
        Runtime.getRuntime().addShutdownHook(withdrawOnExit); // a request left behind by Ctrl-C must not reach a later job
        request.send(control);
        try {
            Optional<ControlResponse> response = awaitResponse(request, control);
            if (response.isEmpty()) {
                err.println("millrace savepoint: no job with checkpoint directory " + checkpointDir + " answered within " + describe(timeout)
                        + "; is it running? (the request was withdrawn)");
                return 1;
            }
            if (!response.get().ok()) {
                err.println("millrace savepoint: the job could not take the savepoint: " + response.get().error());
                return 1;
            }
            out.println(response.get().path());
            return 0;
        } finally {
            Runtime.getRuntime().removeShutdownHook(withdrawOnExit);
            request.withdraw(control);
            out.flush();
            err.flush();
        }
    }

    /**
     * Waits for the job's answer until the timeout, woken by the file system when a file appears in the control
     * directory (the job writes its response atomically); empty when none came.
     */
    private Optional<ControlResponse> awaitResponse(ControlRequest request, Path control) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (WatchService watch = control.getFileSystem().newWatchService()) {
            control.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            while (true) {
                Optional<ControlResponse> response = request.response(control); // read after registering: nothing is missed
                long left = deadline - System.nanoTime();
                if (response.isPresent() || left <= 0) {
                    return response;
                }
                WatchKey key = watch.poll(left, TimeUnit.NANOSECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
        }
    }

    private static void withdrawQuietly(ControlRequest request, Path control) {
        try {
            request.withdraw(control);
        } catch (IOException e) {
            System.err.println("millrace savepoint: could not delete request " + control.resolve(request.requestFileName()) + ": " + e);
        }
    }

    private static String describe(Duration d) {
        return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }
}
