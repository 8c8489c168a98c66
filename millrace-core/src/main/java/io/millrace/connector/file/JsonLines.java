package io.millrace.connector.file;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;
import java.util.Objects;

/**
 * JSON lines: one JSON value per line, read with Jackson as a {@link JsonNode}, a map or a class of
 * yours (a POJO or a Java record). Properties the class does not know are ignored; a line with
 * malformed JSON, trailing content, a {@code null} value or values that do not fit the class is a bad
 * record. Also the {@link LineEncoder} of the JSON-lines {@link FileSink}. Immutable.
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
        String typeName = target.getRawClass().getSimpleName();
        return text -> {
            Object value;
            try {
                value = reader.readValue(text);
            } catch (JsonProcessingException e) {
                throw new BadLineException(e.getOriginalMessage());
            } catch (java.io.IOException | RuntimeException e) {
                throw BadLineException.of(e);
            }
            if (value == null || (value instanceof JsonNode node && (node.isNull() || node.isMissingNode()))) {
                throw new BadLineException("a JSON null is not a " + typeName);
            }
            @SuppressWarnings("unchecked")
            T record = (T) value;
            return record;
        };
    }
}
