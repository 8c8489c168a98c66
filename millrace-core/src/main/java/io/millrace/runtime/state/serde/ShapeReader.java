package io.millrace.runtime.state.serde;

import static io.millrace.runtime.state.serde.StateSchemaException.RENAME;

/**
 * How values written with one {@link StoredShape} are read by the job as it is now. Skipping needs only
 * the stored shape; reading binds it to the current class on first use (see {@link #bind}). A record
 * whose stored shape equals the current one is read component by component in order (the fast path);
 * otherwise components are matched by name: removed ones are skipped, added ones get null, 0 or false,
 * and a changed type must be boxing, unboxing or lossless widening. Enum values map by constant name.
 *
 * <p>Owned by one {@link StateSerializer} (it reuses an argument array), so used by one thread.
 */
final class ShapeReader {
    private static final byte NO_CONVERSION = -1;

    final StoredShape stored;
    /** Per stored record component: its {@link Primitives} kind, as written. */
    private final byte[] storedKinds;

    private boolean bound;
    /** The class as it is now; record or enum. */
    private RecordShape target;
    private Object[] constants;
    private boolean direct;
    /** Per stored component: the current component it goes to, or -1 when removed. */
    private int[] slots;
    /** Per stored component: the primitive kind to convert to, or {@link #NO_CONVERSION}. */
    private byte[] conversions;
    /** Per current component: whether a stored null must become the primitive default. */
    private Object[] nullDefaults;
    /** Per current component: the value when the stored shape lacks it; null when stored. */
    private Object[] missing;
    private Object[] spare;

    ShapeReader(StoredShape stored) {
        this.stored = stored;
        this.storedKinds = new byte[stored.kind() != StoredShape.Kind.ENUM ? stored.size() : 0];
        for (int i = 0; i < storedKinds.length; i++) {
            storedKinds[i] = Primitives.kindOfName(stored.type(i));
        }
    }

    /**
     * Resolves the stored shape against the current class, once. Fails with {@link StateSchemaException}
     * naming {@code context} when values of the stored shape cannot be read: the class is gone or of
     * another kind, a component changed type incompatibly, an enum constant is gone, or ({@code strict},
     * for keys) a record's shape changed at all.
     */
    void bind(ClassLoader loader, boolean strict, String context) {
        if (bound) {
            return;
        }
        Class<?> type = load(stored.className(), loader, context);
        if (stored.kind() == StoredShape.Kind.ENUM) {
            bindEnum(type, context);
        } else {
            bindRecord(type, loader, strict, context);
        }
        bound = true;
    }

    boolean isEnum() {
        return stored.kind() == StoredShape.Kind.ENUM;
    }

    /** The current constant for a stored ordinal; {@link #bind} first. */
    Object constant(int ordinal) {
        if (ordinal < 0 || ordinal >= constants.length) {
            throw new IllegalStateException("enum " + stored.className() + " was stored with " + constants.length
                    + " constants, a value refers to number " + ordinal);
        }
        return constants[ordinal];
    }

    /** Reads the components of one record value (after its tag and shape id); {@link #bind} first. */
    Object readRecord(ByteReader in, StateSerializer values) {
        Object[] args = borrow();
        try {
            if (direct) {
                byte[] kinds = target.kinds;
                for (int i = 0; i < args.length; i++) {
                    args[i] = kinds[i] == Primitives.REF ? values.read(in) : Primitives.read(kinds[i], in);
                }
                return target.construct(args);
            }
            System.arraycopy(missing, 0, args, 0, args.length);
            for (int i = 0; i < storedKinds.length; i++) {
                int slot = slots[i];
                byte kind = storedKinds[i];
                if (slot < 0) {
                    if (kind == Primitives.REF) {
                        values.skip(in);
                    } else {
                        Primitives.skip(kind, in);
                    }
                    continue;
                }
                Object v = kind == Primitives.REF ? values.read(in) : Primitives.read(kind, in);
                if (v == null) {
                    v = nullDefaults[slot];
                } else if (conversions[i] != NO_CONVERSION) {
                    v = Primitives.convert(v, conversions[i]);
                }
                args[slot] = v;
            }
            return target.construct(args);
        } finally {
            giveBack(args);
        }
    }

    /** Moves past the components of one record value, by the stored shape alone. */
    void skipRecord(ByteReader in, StateSerializer values) {
        for (byte kind : storedKinds) {
            if (kind == Primitives.REF) {
                values.skip(in);
            } else {
                Primitives.skip(kind, in);
            }
        }
    }

    private Object[] borrow() {
        Object[] a = spare;
        if (a == null) {
            return new Object[target.size()];
        }
        spare = null;
        return a;
    }

    private void giveBack(Object[] args) {
        java.util.Arrays.fill(args, null);
        spare = args;
    }

    private void bindEnum(Class<?> type, String context) {
        if (!type.isEnum()) {
            throw new StateSchemaException(context, "class " + type.getName() + " was an enum when the state was written and is not one now",
                    "Keep it an enum, " + RENAME);
        }
        constants = new Object[stored.size()];
        Object[] now = type.getEnumConstants();
        for (int i = 0; i < constants.length; i++) {
            for (Object c : now) {
                if (((Enum<?>) c).name().equals(stored.name(i))) {
                    constants[i] = c;
                }
            }
            if (constants[i] == null) {
                throw new StateSchemaException(context, "enum " + type.getName() + " has no constant '" + stored.name(i)
                        + "' any more, which stored values may hold", "Keep the constant (it may be deprecated), " + RENAME);
            }
        }
    }

    private void bindRecord(Class<?> type, ClassLoader loader, boolean strict, String context) {
        boolean record = stored.kind() == StoredShape.Kind.RECORD;
        if (record ? !type.isRecord() : !PlainClass.is(type)) {
            String was = record ? "a record" : "a plain class written field by field";
            throw new StateSchemaException(context, "class " + type.getName() + " was " + was + " when the state was written and is not one now",
                    "Keep it " + was + (record ? "" : " (concrete, a no-argument constructor, no final fields)") + ", " + RENAME);
        }
        target = RecordShape.of(type);
        direct = target.id == stored.id() && target.stored.equals(stored);
        if (direct) {
            return;
        }
        if (strict) {
            throw new StateSchemaException(context, "the key type " + type.getName() + " changed from " + stored.describe()
                    + " to " + target.stored.describe() + ", so stored keys would not be found",
                    "Keys, map keys and namespaces cannot change shape: keep the old key class, " + RENAME);
        }
        StoredShape now = target.stored;
        slots = new int[stored.size()];
        conversions = new byte[stored.size()];
        nullDefaults = new Object[now.size()];
        missing = new Object[now.size()];
        boolean[] found = new boolean[now.size()];
        for (int i = 0; i < stored.size(); i++) {
            slots[i] = -1;
            conversions[i] = NO_CONVERSION;
            for (int j = 0; j < now.size(); j++) {
                if (now.name(j).equals(stored.name(i))) {
                    slots[i] = j;
                    found[j] = true;
                    conversions[i] = conversion(stored.label() + " " + type.getName(), stored.name(i), stored.type(i), now.type(j), loader, context);
                }
            }
        }
        for (int j = 0; j < now.size(); j++) {
            nullDefaults[j] = Primitives.defaultValue(target.kinds[j]);
            missing[j] = found[j] ? null : nullDefaults[j];
        }
    }

    /** How a component's stored value becomes its current type; fails when it cannot. */
    private static byte conversion(String owner, String field, String storedType, String currentType,
            ClassLoader loader, String context) {
        if (storedType.equals(currentType)) {
            return NO_CONVERSION;
        }
        byte from = Primitives.unboxedKindOfName(storedType);
        byte to = Primitives.unboxedKindOfName(currentType);
        if (from != Primitives.REF && to != Primitives.REF && (from == to || Primitives.widens(from, to))) {
            return to;
        }
        if (from == Primitives.REF && to == Primitives.REF && isSupertype(currentType, storedType, loader)) {
            return NO_CONVERSION;
        }
        throw new StateSchemaException(context, "field '" + field + "' of " + owner + " was stored as "
                + storedType + " and is now " + currentType + ", which stored values cannot be converted to"
                + " (allowed: added or removed fields, widening such as int -> long or float -> double, boxing)",
                "Keep the field's old type (add a field with the new type instead), " + RENAME);
    }

    /** Whether both are plain classes and {@code current} is a supertype of {@code stored} (e.g. String -> CharSequence). */
    private static boolean isSupertype(String current, String stored, ClassLoader loader) {
        if (current.indexOf('<') >= 0 || stored.indexOf('<') >= 0) {
            return false;
        }
        try {
            return Class.forName(current, false, loader).isAssignableFrom(Class.forName(stored, false, loader));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private Class<?> load(String name, ClassLoader loader, String context) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new StateSchemaException(context, stored.label() + " " + name
                    + " is not on the class path any more, and stored values hold it",
                    "Keep the class (its fields may change), " + RENAME);
        }
    }
}
