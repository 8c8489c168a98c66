package io.millrace.api;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.state.KeyHash;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;

/** Finds the key type a key selector declares, so {@code keyBy} can refuse keys that cannot have a {@link KeyHash}. */
final class KeyTypes {
    private KeyTypes() {}

    /**
     * Fails with {@link IllegalArgumentException} naming the type when {@code selector} declares a key type that
     * {@link KeyHash#checkKeyType} refuses. A selector whose type cannot be found (a generic lambda, a selector
     * returning {@code Object}) passes; its keys are checked as they come.
     */
    static void check(KeySelector<?, ?> selector) {
        Class<?> type = declaredKeyType(selector);
        if (type != null) {
            KeyHash.checkKeyType(type, "the key selector given to keyBy");
        }
    }

    /** The most specific return type of the selector's {@code getKey}, or null if it cannot be found. */
    static Class<?> declaredKeyType(KeySelector<?, ?> selector) {
        Class<?> c = selector.getClass();
        if (c.isSynthetic() || c.isHidden()) {
            return lambdaReturnType(selector);
        }
        Class<?> best = null;
        for (Method m : c.getMethods()) {
            if (m.getName().equals("getKey") && m.getParameterCount() == 1 && !m.isBridge()
                    && (best == null || best.isAssignableFrom(m.getReturnType()))) {
                best = m.getReturnType();
            }
        }
        return best == Object.class ? null : best;
    }

    /** A serializable lambda's instantiated return type, from its {@link SerializedLambda}; null if unavailable. */
    private static Class<?> lambdaReturnType(KeySelector<?, ?> selector) {
        try {
            Method writeReplace = selector.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            if (!(writeReplace.invoke(selector) instanceof SerializedLambda lambda)) {
                return null;
            }
            String descriptor = lambda.getInstantiatedMethodType();
            String returned = descriptor.substring(descriptor.lastIndexOf(')') + 1);
            if (returned.startsWith("[")) {
                return Class.forName(returned.replace('/', '.'), false, selector.getClass().getClassLoader());
            }
            if (!returned.startsWith("L")) {
                return null;
            }
            Class<?> type = Class.forName(returned.substring(1, returned.length() - 1).replace('/', '.'), false,
                    selector.getClass().getClassLoader());
            return type == Object.class ? null : type;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // not found: the first key of each class is checked instead
        }
    }
}
