package io.millrace.cep;

import java.io.Serializable;
import java.util.Objects;

/** A user condition as the engine keeps it: the function, and whether it reads the partial match (iterative). */
record Condition<E>(IterativeCondition<E> function, boolean iterative) implements Serializable {
    static <E> Condition<E> simple(SimpleCondition<E> condition) {
        Objects.requireNonNull(condition, "condition");
        return new Condition<>((e, ctx) -> condition.filter(e), false);
    }

    static <E> Condition<E> iterative(IterativeCondition<E> condition) {
        return new Condition<>(Objects.requireNonNull(condition, "condition"), true);
    }

    static <E> Condition<E> and(Condition<E> a, Condition<E> b) {
        IterativeCondition<E> fa = a.function;
        IterativeCondition<E> fb = b.function;
        return new Condition<>((e, ctx) -> fa.filter(e, ctx) && fb.filter(e, ctx), a.iterative || b.iterative);
    }

    static <E> Condition<E> or(Condition<E> a, Condition<E> b) {
        IterativeCondition<E> fa = a.function;
        IterativeCondition<E> fb = b.function;
        return new Condition<>((e, ctx) -> fa.filter(e, ctx) || fb.filter(e, ctx), a.iterative || b.iterative);
    }
}
