package io.millrace.runtime.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@code _metadata} file: pretty-printed JSON, meant to be read by people and by every later version
 * of Millrace (savepoints outlive upgrades). An envelope carries the format name, the format
 * {@value #VERSION}, the checkpoint itself, and the SHA-256 of the checkpoint's compact JSON form, so
 * whitespace may change but no value can. Operators are written sorted by id, so the same checkpoint
 * always gives the same file. State files are named relative to the checkpoint's own directory, which
 * makes a savepoint directory self-contained. Shared files of incremental checkpoints
 * ({@code nativeKeyedState}) are named relative to the shared area next to the checkpoint directories
 * ({@value #SHARED}); their handles carry {@code shared/<name>}.
 *
 * <p>Versions: 1 has no {@code nativeKeyedState}; 2 adds it. A checkpoint without native keyed state (every
 * savepoint) is still written as version 1, so older Millrace versions read it. Stateless: safe to use from
 * any thread.
 */
final class MetadataFormat {
    static final String FORMAT = "millrace-checkpoint";
    static final int VERSION = 2;
    /** The shared area's directory under the checkpoint root, and the prefix of shared handles' paths. */
    static final String SHARED = "shared";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Two spaces and "\n" on every platform, so the file is the same wherever it was written. */
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(DefaultPrettyPrinter.FixedSpaceIndenter.instance);
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private MetadataFormat() {}

    /**
     * Encodes {@code metadata}; {@code fileName} gives the name, inside the checkpoint directory, of a handle's
     * file. Shared handles must carry {@code shared/<name>}.
     */
    static byte[] write(CheckpointMetadata metadata, Function<StateHandle, String> fileName) {
        boolean hasNative = false;
        ObjectNode body = COMPACT.createObjectNode();
        body.put("id", metadata.checkpointId());
        body.put("timestamp", metadata.timestamp());
        body.put("savepoint", metadata.savepoint());
        body.put("jobName", metadata.jobName());
        body.put("maxParallelism", metadata.maxParallelism());
        ArrayNode operators = body.putArray("operators");
        for (Map.Entry<String, OperatorSnapshot> entry : new TreeMap<>(metadata.operators()).entrySet()) {
            OperatorSnapshot operator = entry.getValue();
            if (!entry.getKey().equals(operator.operatorId())) {
                throw new IllegalArgumentException(
                        "operator map key '" + entry.getKey() + "' differs from its operatorId '" + operator.operatorId() + "'");
            }
            ObjectNode op = operators.addObject();
            op.put("id", operator.operatorId());
            op.put("name", operator.name());
            op.put("parallelism", operator.parallelism());
            if (operator.watermark() != Long.MIN_VALUE) {
                op.put("watermark", operator.watermark());
            }
            ArrayNode subtasks = op.putArray("subtasks");
            for (SubtaskSnapshot subtask : operator.subtasks()) {
                ObjectNode st = subtasks.addObject();
                st.put("subtask", subtask.subtask());
                st.put("keyGroupStart", subtask.keyGroupStart());
                if (subtask.keyGroupOffsets() == null) {
                    st.putNull("keyGroupOffsets");
                } else {
                    ArrayNode offsets = st.putArray("keyGroupOffsets");
                    for (long offset : subtask.keyGroupOffsets()) {
                        offsets.add(offset);
                    }
                }
                putHandle(st, "keyedState", subtask.keyedState(), fileName);
                putHandle(st, "operatorState", subtask.operatorState(), fileName);
                if (subtask.nativeKeyedState() != null) {
                    putNative(st, subtask.nativeKeyedState(), fileName);
                    hasNative = true;
                }
            }
        }
        ObjectNode envelope = JSON.createObjectNode();
        envelope.put("format", FORMAT);
        envelope.put("version", hasNative ? VERSION : 1);
        envelope.set("checkpoint", body);
        envelope.put("sha256", sha256(body));
        try {
            return JSON.writer(PRETTY).writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode checkpoint metadata", e);
        }
    }

    /** Like {@link #read(byte[], Function, Function)}, shared files' handles carrying {@code shared/<name>}. */
    static CheckpointMetadata read(byte[] bytes, Function<String, String> handlePath) throws IOException {
        return read(bytes, handlePath, name -> SHARED + "/" + name);
    }

    /**
     * Decodes a {@code _metadata} file. {@code handlePath} turns a file name inside the checkpoint directory
     * into the path its handle carries, {@code sharedPath} a name in the shared area (both may reject the
     * name). Fails with a message saying what is wrong.
     */
    static CheckpointMetadata read(byte[] bytes, Function<String, String> handlePath, Function<String, String> sharedPath)
            throws IOException {
        JsonNode envelope;
        try {
            envelope = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new IOException("not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (envelope == null || !envelope.isObject() || !FORMAT.equals(envelope.path("format").asText())) {
            throw new IOException("not a Millrace checkpoint metadata file (no \"format\": \"" + FORMAT + "\")");
        }
        int version = (int) number(envelope, "version");
        if (version < 1 || version > VERSION) {
            throw new IOException("format version " + version + " is not supported (this Millrace reads versions 1 to " + VERSION + ")");
        }
        JsonNode body = field(envelope, "checkpoint", JsonNodeType.OBJECT);
        String expected = field(envelope, "sha256", JsonNodeType.STRING).asText();
        if (!expected.equalsIgnoreCase(sha256(body))) {
            throw new IOException("checksum mismatch (the content was changed after it was written)");
        }
        try {
            return decode(body, handlePath, sharedPath);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IOException("invalid content: " + e.getMessage(), e);
        }
    }

    private static CheckpointMetadata decode(JsonNode body, Function<String, String> handlePath, Function<String, String> sharedPath)
            throws IOException {
        Map<String, OperatorSnapshot> operators = new HashMap<>();
        for (JsonNode op : field(body, "operators", JsonNodeType.ARRAY)) {
            List<SubtaskSnapshot> subtasks = new ArrayList<>();
            for (JsonNode st : field(op, "subtasks", JsonNodeType.ARRAY)) {
                int keyGroupStart = (int) number(st, "keyGroupStart");
                subtasks.add(new SubtaskSnapshot(
                        (int) number(st, "subtask"),
                        keyGroupStart,
                        offsets(st.path("keyGroupOffsets")),
                        handle(st.path("keyedState"), handlePath),
                        handle(st.path("operatorState"), handlePath),
                        nativeState(st.path("nativeKeyedState"), keyGroupStart, handlePath, sharedPath)));
            }
            String id = field(op, "id", JsonNodeType.STRING).asText();
            long watermark = op.has("watermark") ? number(op, "watermark") : Long.MIN_VALUE;
            OperatorSnapshot previous = operators.put(id, new OperatorSnapshot(
                    id, textOrNull(op, "name"), (int) number(op, "parallelism"), subtasks, watermark));
            if (previous != null) {
                throw new IOException("operator '" + id + "' appears twice");
            }
        }
        return new CheckpointMetadata(
                number(body, "id"),
                number(body, "timestamp"),
                field(body, "savepoint", JsonNodeType.BOOLEAN).asBoolean(),
                textOrNull(body, "jobName"),
                (int) number(body, "maxParallelism"),
                operators);
    }

    private static void putHandle(ObjectNode parent, String name, StateHandle handle, Function<StateHandle, String> fileName) {
        if (handle == null) {
            parent.putNull(name);
            return;
        }
        ObjectNode node = parent.putObject(name);
        node.put("file", fileName.apply(handle));
        node.put("size", handle.size());
        node.put("crc32", String.format("%08x", handle.crc32()));
    }

    private static void putNative(ObjectNode parent, NativeKeyedState state, Function<StateHandle, String> fileName) {
        ObjectNode node = parent.putObject("nativeKeyedState");
        node.put("backend", state.backend());
        node.put("keyGroupEnd", state.keyGroups().end());
        ArrayNode files = node.putArray("files");
        for (NativeKeyedState.NativeFile f : state.files()) {
            ObjectNode file = files.addObject();
            file.put("name", f.name());
            if (f.shared()) {
                String prefix = SHARED + "/";
                if (!f.handle().path().startsWith(prefix)) {
                    throw new IllegalArgumentException("shared file " + f.handle().path() + " is not in the shared area");
                }
                file.put("shared", f.handle().path().substring(prefix.length()));
            } else {
                file.put("file", fileName.apply(f.handle()));
            }
            file.put("size", f.handle().size());
            file.put("crc32", String.format("%08x", f.handle().crc32()));
        }
    }

    private static NativeKeyedState nativeState(JsonNode node, int keyGroupStart, Function<String, String> handlePath,
            Function<String, String> sharedPath) throws IOException {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        List<NativeKeyedState.NativeFile> files = new ArrayList<>();
        for (JsonNode f : field(node, "files", JsonNodeType.ARRAY)) {
            boolean shared = f.has("shared");
            String name = field(f, shared ? "shared" : "file", JsonNodeType.STRING).asText();
            StateHandle handle = handle(f, shared ? sharedPath.apply(name) : handlePath.apply(name));
            files.add(new NativeKeyedState.NativeFile(field(f, "name", JsonNodeType.STRING).asText(), handle, shared));
        }
        return new NativeKeyedState(field(node, "backend", JsonNodeType.STRING).asText(),
                new KeyGroupRange(keyGroupStart, (int) number(node, "keyGroupEnd")), files);
    }

    private static StateHandle handle(JsonNode node, Function<String, String> handlePath) throws IOException {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        return handle(node, handlePath.apply(field(node, "file", JsonNodeType.STRING).asText()));
    }

    private static StateHandle handle(JsonNode node, String path) throws IOException {
        String crc = field(node, "crc32", JsonNodeType.STRING).asText();
        if (!crc.matches("[0-9a-fA-F]{8}")) {
            throw new IOException("crc32 '" + crc + "' is not 8 hex digits");
        }
        return new StateHandle(path, number(node, "size"), Long.parseLong(crc, 16));
    }

    private static long[] offsets(JsonNode node) throws IOException {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new IOException("keyGroupOffsets is not an array");
        }
        long[] offsets = new long[node.size()];
        for (int i = 0; i < offsets.length; i++) {
            if (!node.get(i).canConvertToLong() || !node.get(i).isIntegralNumber()) {
                throw new IOException("keyGroupOffsets[" + i + "] is not a whole number");
            }
            offsets[i] = node.get(i).asLong();
        }
        return offsets;
    }

    private static JsonNode field(JsonNode parent, String name, JsonNodeType type) throws IOException {
        JsonNode node = parent.get(name);
        if (node == null || node.getNodeType() != type) {
            throw new IOException("field \"" + name + "\" is missing or not a " + type.name().toLowerCase());
        }
        return node;
    }

    private static String textOrNull(JsonNode parent, String name) throws IOException {
        JsonNode node = parent.get(name);
        if (node == null || !(node.isTextual() || node.isNull())) {
            throw new IOException("field \"" + name + "\" is missing or not a string");
        }
        return node.isNull() ? null : node.asText();
    }

    private static long number(JsonNode parent, String name) throws IOException {
        JsonNode node = parent.get(name);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new IOException("field \"" + name + "\" is missing or not a whole number");
        }
        return node.asLong();
    }

    private static String sha256(JsonNode body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(COMPACT.writeValueAsBytes(body)));
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException("cannot compute the metadata checksum", e);
        }
    }
}
