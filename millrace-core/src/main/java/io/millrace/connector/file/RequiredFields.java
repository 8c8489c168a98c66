package io.millrace.connector.file;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The properties of a class read from JSON that must be present and not null: those of a primitive type
 * ({@code double}, {@code long}, {@code int}, {@code boolean}...), which have no value for "absent". A
 * property of a boxed or reference type ({@code Double}, {@code String}, a nested class) is optional and
 * read as null when absent or null; the primitive properties of a nested class are required when the
 * nested object is there. Elements of arrays, collections and maps are not checked here. Immutable.
 */
final class RequiredFields {
    /** How deep nested classes are followed (a guard against deep or recursive types). */
    private static final int MAX_DEPTH = 8;

    /** {@code type} is the primitive's name, null for a nested class; {@code creator}: bound by a constructor parameter. */
    private record Field(String name, String type, boolean creator, RequiredFields nested) {}

    private final List<Field> fields;

    private RequiredFields(List<Field> fields) {
        this.fields = fields;
    }

    /**
     * Whether the data binding may leave a required field at its default without failing: true when one (at any
     * depth) is set through a setter or a field, where an absent property is never set. Data binding with
     * {@code FAIL_ON_NULL_FOR_PRIMITIVES} refuses a missing or null primitive constructor parameter (a Java
     * record's components) by itself; only then can the check wait for its failure.
     */
    boolean bindingMissesSome() {
        for (Field f : fields) {
            if (f.nested() == null ? !f.creator() : f.nested().bindingMissesSome()) {
                return true;
            }
        }
        return false;
    }

    /** The checks for {@code type}, or null when it has no primitive property at any depth. */
    static RequiredFields of(ObjectMapper mapper, JavaType type) {
        return of(mapper, type, 0, new HashSet<>());
    }

    private static RequiredFields of(ObjectMapper mapper, JavaType type, int depth, Set<Class<?>> visiting) {
        if (depth > MAX_DEPTH || !isBean(type) || !visiting.add(type.getRawClass())) {
            return null;
        }
        BeanDescription bean = mapper.getDeserializationConfig().introspect(type);
        List<Field> fields = new ArrayList<>();
        for (BeanPropertyDefinition p : bean.findProperties()) {
            if (!p.hasConstructorParameter() && !p.hasSetter() && !p.hasField()) {
                continue;
            }
            JavaType t = p.getPrimaryType();
            if (t.isPrimitive()) {
                fields.add(new Field(p.getName(), t.getRawClass().getName(), p.hasConstructorParameter(), null));
            } else {
                RequiredFields nested = of(mapper, t, depth + 1, visiting);
                if (nested != null) {
                    fields.add(new Field(p.getName(), null, p.hasConstructorParameter(), nested));
                }
            }
        }
        visiting.remove(type.getRawClass());
        return fields.isEmpty() ? null : new RequiredFields(List.copyOf(fields));
    }

    private static String boxed(String primitive) {
        return switch (primitive) {
            case "int" -> "Integer";
            case "char" -> "Character";
            default -> Character.toUpperCase(primitive.charAt(0)) + primitive.substring(1);
        };
    }

    private static boolean isBean(JavaType type) {
        Class<?> raw = type.getRawClass();
        return !type.isPrimitive() && !type.isContainerType() && !type.isEnumType() && !raw.isArray() && !raw.isInterface()
                && !JsonNode.class.isAssignableFrom(raw) && !raw.getName().startsWith("java.");
    }

    /**
     * Why {@code node} lacks a required value ("field 'value' (double) is missing"), or null if it has them all.
     * A node that is not an object is left to the data binding, which refuses it.
     */
    String violation(JsonNode node) {
        return violation(node, "");
    }

    private String violation(JsonNode node, String prefix) {
        if (!node.isObject()) {
            return null;
        }
        for (Field f : fields) {
            JsonNode value = node.get(f.name());
            String path = prefix + f.name();
            if (f.nested() == null) {
                if (value == null || value.isNull()) {
                    return "field '" + path + "' (" + f.type() + ") is " + (value == null ? "missing" : "null")
                            + "; declare it as " + boxed(f.type()) + " to make it optional";
                }
            } else if (value != null && !value.isNull()) {
                String inner = f.nested().violation(value, path + ".");
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }
}
