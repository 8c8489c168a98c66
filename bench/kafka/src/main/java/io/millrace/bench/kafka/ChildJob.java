package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One engine's job in a JVM of its own: started with the suite's JVM options, its standard error in a log file, its
 * standard output watched for {@link KafkaJob#STARTED} and {@link KafkaJob#DONE}. {@link #stop} ends it (SIGTERM,
 * then SIGKILL after 10 s) and reads its peak RSS and CPU time first.
 */
final class ChildJob implements AutoCloseable {
    private final Process process;
    private final Path log;
    private volatile long startedMillis;
    private volatile long doneMillis;
    long peakRssKb;
    double cpuSeconds;

    ChildJob(List<String> jvmOptions, String classPath, String main, List<String> args, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(main);
        command.addAll(args);
        this.log = log;
        this.process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Thread watcher = new Thread(this::watch, "child-stdout");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith(KafkaJob.STARTED + " ")) {
                    startedMillis = Long.parseLong(line.substring(KafkaJob.STARTED.length() + 1).trim());
                } else if (line.startsWith(KafkaJob.DONE + " ")) {
                    doneMillis = Long.parseLong(line.substring(KafkaJob.DONE.length() + 1).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the child is gone; alive() says so
        }
    }

    long startedMillis() {
        return startedMillis;
    }

    long doneMillis() {
        return doneMillis;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Fails with the end of the child's log when it has exited. */
    void checkAlive(String what) {
        if (!process.isAlive()) {
            throw new IllegalStateException(what + " exited with " + process.exitValue() + "; the end of " + log + ":\n" + tail());
        }
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    void stop() {
        readProc();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private void readProc() {
        long pid = process.pid();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    peakRssKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);   // utime + stime, fields 14 and 15
            cpuSeconds = ticks / 100.0;
        } catch (IOException | RuntimeException e) {
            // gone already: no figures
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        }
    }
}
