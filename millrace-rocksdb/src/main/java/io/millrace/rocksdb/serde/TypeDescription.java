package io.millrace.rocksdb.serde;

import java.lang.reflect.RecordComponent;

/**
 * A readable description of a stored value's type, kept in a backend's metadata per state so that a
 * later restore can check (and evolve) the schema: for a record its components in order with their
 * types, for an enum its constants, otherwise the class name.
 */
public final class TypeDescription {
    private TypeDescription() {}

    public static String of(Class<?> type) {
        StringBuilder b = new StringBuilder();
        if (type.isRecord()) {
            b.append("record ").append(type.getName()).append('(');
            RecordComponent[] components = type.getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(components[i].getName()).append(": ").append(components[i].getGenericType().getTypeName());
            }
            return b.append(')').toString();
        }
        if (type.isEnum()) {
            b.append("enum ").append(type.getName()).append(" {");
            Object[] constants = type.getEnumConstants();
            for (int i = 0; i < constants.length; i++) {
                b.append(i > 0 ? ", " : "").append(((Enum<?>) constants[i]).name());
            }
            return b.append('}').toString();
        }
        return type.getName();
    }
}
