package io.millrace.runtime.checkpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A job's answer to a {@link ControlRequest}, as {@code key: value} lines: {@code status: ok} and
 * {@code path: <savepoint directory>}, or {@code status: failed} and {@code error: <message>}.
 */
public record ControlResponse(boolean ok, String path, String error) {
    public static ControlResponse success(String path) {
        return new ControlResponse(true, path, null);
    }

    public static ControlResponse failure(String error) {
        return new ControlResponse(false, null, error);
    }

    /** Reads the lines {@link #format()} writes; a response without a status counts as failed. */
    public static ControlResponse parse(String text) {
        Map<String, String> values = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                values.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        if ("ok".equals(values.get("status")) && values.containsKey("path")) {
            return success(values.get("path"));
        }
        return failure(values.getOrDefault("error", "the job's response has no status: '" + text.strip() + "'"));
    }

    public String format() {
        return ok ? "status: ok\npath: " + path + "\n" : "status: failed\nerror: " + oneLine(error) + "\n";
    }

    private static String oneLine(String s) {
        return s == null ? "unknown error" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /** Makes {@code file} appear with this response atomically. */
    void writeTo(Path file) throws IOException {
        DurableFiles.writeAtomically(file, format().getBytes(StandardCharsets.UTF_8));
    }
}
