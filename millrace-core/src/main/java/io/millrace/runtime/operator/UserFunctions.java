package io.millrace.runtime.operator;

import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.KeyedStateStore;

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
        return new RuntimeContext() {
            @Override
            public String operatorName() {
                return ctx.operatorName();
            }

            @Override
            public int subtaskIndex() {
                return ctx.subtaskIndex();
            }

            @Override
            public int parallelism() {
                return ctx.parallelism();
            }

            @Override
            public int maxParallelism() {
                return ctx.maxParallelism();
            }

            @Override
            public io.millrace.api.time.Clock clock() {
                return ctx.clock();
            }

            @Override
            public KeyedStateStore state() {
                if (ctx.keyedStateBackend() == null) {
                    throw new IllegalStateException(
                            "operator '" + ctx.operatorName() + "' is not keyed: keyed state needs keyBy() before it");
                }
                return ctx.keyedStateBackend().stateStore();
            }
        };
    }
}
