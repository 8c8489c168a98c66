package io.millrace.connector.file;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * JSON lines: one JSON value per line, read with Jackson as a {@link JsonNode}, a map or a class of
 * yours (a POJO or a Java record). Properties the class does not know are ignored; a line with
 * malformed JSON, trailing content, a {@code null} value or values that do not fit the class is a bad
 * record. Also the {@link LineEncoder} of the JSON-lines {@link FileSink}. Immutable.
 *
 * <p>A field of a primitive type ({@code double value}, {@code long ts}) is required: a line where it is
 * missing or {@code null} is a bad record whose reason names the field, also in nested classes. A field of
 * a boxed or reference type ({@code Double value}, {@code String note}) is optional: it is null when the
 * line lacks it or has {@code null}. The reason of a bad record never carries Jackson's own position: the
 * reader reports {@code <file>:<line>}. A Java record (or a class bound through its constructor) is read in
 * one pass; a class with a primitive field set through a setter or the field itself costs a second pass per
 * line (a JSON tree), since data binding never sees a property that is absent.
 *
 * <pre>{@code
 * LineFormat<JsonNode> nodes = JsonLines.nodes();
 * LineFormat<Reading> readings = JsonLines.of(Reading.class);
 * }</pre>
 */
public final class JsonLines<T> implements LineFormat<T> {
    /** Shared by all readers and writers; configured once, thread-safe from then on. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private final Class<?> type;
    private final boolean asMap;

    private JsonLines(Class<?> type, boolean asMap) {
        this.type = type;
        this.asMap = asMap;
    }

    /** Each line as a Jackson tree. */
    public static JsonLines<JsonNode> nodes() {
        return new JsonLines<>(JsonNode.class, false);
    }

    /** Each line, which must be a JSON object, as a map from property name to value. */
    public static JsonLines<Map<String, Object>> maps() {
        return new JsonLines<>(Map.class, true);
    }

    /** Each line bound to {@code type} by Jackson's data binding. */
    public static <T> JsonLines<T> of(Class<T> type) {
        return new JsonLines<>(Objects.requireNonNull(type, "type"), false);
    }

    /** A writer format for the JSON-lines {@link FileSink}: any value Jackson can serialize, one per line. */
    public static <T> LineEncoder<T> encoder() {
        return new LineEncoder<>() {
            @Override
            public String extension() {
                return "jsonl";
            }

            @Override
            public void encode(T value, StringBuilder line) throws JsonProcessingException {
                line.append(MAPPER.writeValueAsString(value));
            }
        };
    }

    @Override
    public LineDecoder<T> open(String file, String header) {
        JavaType target = asMap
                ? MAPPER.getTypeFactory().constructType(new TypeReference<Map<String, Object>>() {})
                : MAPPER.getTypeFactory().constructType(type);
        ObjectReader reader = MAPPER.readerFor(target);
        ObjectReader trees = MAPPER.readerFor(JsonNode.class);
        RequiredFields required = asMap ? null : RequiredFields.of(MAPPER, target);
        boolean checkEveryLine = required != null && required.bindingMissesSome();
        String typeName = target.getRawClass().getSimpleName();
        return text -> {
            Object value;
            try {
                if (checkEveryLine) {
                    JsonNode tree = trees.readValue(text);
                    String missing = tree == null ? null : required.violation(tree);
                    if (missing != null) {
                        throw new BadLineException(missing);
                    }
                    value = tree == null || tree.isNull() ? null : reader.readValue(tree);
                } else {
                    value = reader.readValue(text);
                }
            } catch (JsonProcessingException e) {
                String missing = required == null || checkEveryLine ? null : violation(trees, required, text);
                throw new BadLineException(missing != null ? missing : reason(e));
            } catch (java.io.IOException | RuntimeException e) {
                throw new BadLineException(withoutParserLocation(BadLineException.of(e).getMessage()));
            }
            if (value == null || (value instanceof JsonNode node && (node.isNull() || node.isMissingNode()))) {
                throw new BadLineException("a JSON null is not a " + typeName);
            }
            @SuppressWarnings("unchecked")
            T record = (T) value;
            return record;
        };
    }

    /**
     * The missing or null required field of a line the data binding refused, or null when that is not why (or the
     * line is not JSON). Only for lines already found bad, so the second parse costs nothing on good lines.
     */
    private static String violation(ObjectReader trees, RequiredFields required, String text) {
        try {
            JsonNode tree = trees.readValue(text);
            return tree == null ? null : required.violation(tree);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Jackson's reason without its own position (the reader reports {@code file:line}) and without its hints about
     * its configuration, prefixed with the field it is about when it knows one.
     */
    static String reason(JsonProcessingException e) {
        String message = withoutParserLocation(e.getOriginalMessage());
        message = CONFIGURATION_HINT.matcher(message).replaceAll("");
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder();
            for (JsonMappingException.Reference r : mapping.getPath()) {
                if (r.getFieldName() != null) {
                    path.append(path.length() == 0 ? "" : ".").append(r.getFieldName());
                } else if (r.getIndex() >= 0) {
                    path.append('[').append(r.getIndex()).append(']');
                }
            }
            if (path.length() > 0) {
                return "field '" + path + "': " + message;
            }
        }
        return message;
    }

    private static final Pattern PARSER_LOCATION = Pattern.compile("\\s*at \\[Source: [^\\]]*\\]");
    private static final Pattern CONFIGURATION_HINT = Pattern.compile("\\s*\\(set DeserializationConfig[^)]*\\)");

    private static String withoutParserLocation(String message) {
        return message == null ? "" : PARSER_LOCATION.matcher(message).replaceAll("");
    }
}
