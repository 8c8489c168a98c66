package io.millrace.runtime.operator;

import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.operator.OperatorContext;

/** Opens and closes user functions that have a lifecycle. */
public final class UserFunctions {
    private UserFunctions() {}

    public static void open(Object function, OperatorContext ctx) throws Exception {
        if (function instanceof RichFunction rich) {
            rich.open(runtimeContext(ctx));
        }
    }

    public static void close(Object function) throws Exception {
        if (function instanceof RichFunction rich) {
            rich.close();
        }
    }

    public static RuntimeContext runtimeContext(OperatorContext ctx) {
        return ctx.runtimeContext();
    }
}
