package io.millrace.runtime.broadcast;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.BroadcastProcessFunction;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReadOnlyBroadcastState;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import io.millrace.runtime.operator.UserFunctions;
import java.util.List;

/**
 * Runs a {@link BroadcastProcessFunction}: input 0, the data stream, is processed with the broadcast states read-only;
 * input 1, the broadcast stream (every record on every subtask), with them writable. No keyed state, no timers; the
 * watermark, the lower of both inputs', is only passed on. Task thread only.
 */
public final class BroadcastProcessOperator<A, B, OUT> extends BroadcastOperatorBase<A, B, OUT> {
    private final BroadcastProcessFunction<A, B, OUT> function;
    private final DataContext dataContext = new DataContext();
    private final BroadcastContext broadcastContext = new BroadcastContext();
    private boolean closed;

    public BroadcastProcessOperator(BroadcastProcessFunction<A, B, OUT> function, List<MapStateDescriptor<?, ?>> descriptors) {
        super(descriptors);
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord1(A value, long recordTimestamp) throws Exception {
        prepare(recordTimestamp);
        try {
            function.processElement(value, dataContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processRecord2(B value, long recordTimestamp) throws Exception {
        prepare(recordTimestamp);
        try {
            function.processBroadcastElement(value, broadcastContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            UserFunctions.close(function);
        }
    }

    private abstract class Base implements BroadcastProcessFunction.BaseContext {
        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public long currentWatermark() {
            return currentWatermark;
        }

        @Override
        public long currentProcessingTime() {
            return processingTime();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.emit(tag, value, timestamp);
        }
    }

    private final class DataContext extends Base implements BroadcastProcessFunction.ReadOnlyContext {
        @Override
        public <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> descriptor) {
            return states.readOnly(descriptor);
        }
    }

    private final class BroadcastContext extends Base implements BroadcastProcessFunction.Context {
        @Override
        public <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> descriptor) {
            return states.writable(descriptor);
        }
    }
}
