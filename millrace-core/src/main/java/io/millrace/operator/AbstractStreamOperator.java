package io.millrace.operator;

/**
 * Base of most operators: keeps the context, the output and the metrics, tracks the current
 * watermark, and forwards watermarks. Keyed subclasses override {@link #processWatermark} to fire
 * timers first ({@link OperatorContext#fireEventTimeTimers}) and then call super.
 */
public abstract class AbstractStreamOperator<OUT> implements StreamOperator<OUT> {
    protected OperatorContext context;
    protected Output<OUT> output;
    protected OperatorMetricGroup metrics;
    protected long currentWatermark = Long.MIN_VALUE;

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        this.context = context;
        this.output = output;
        this.metrics = context.metrics();
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        currentWatermark = watermark;
        metrics.watermark(watermark);
        output.emitWatermark(watermark);
    }

    public long currentWatermark() {
        return currentWatermark;
    }

    /**
     * {@code Long.MAX_VALUE} when the class keeps this class's {@link #processWatermark} (it only notes the
     * watermark and passes it on), else every watermark ({@code Long.MIN_VALUE}) unless the class says better.
     */
    @Override
    public long watermarkToAct() {
        return PASSES_WATERMARKS_ON.get(getClass()) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    /** Per operator class: whether its processWatermark is this class's (a copy the runtime makes of a class answers for that copy). */
    private static final ClassValue<Boolean> PASSES_WATERMARKS_ON = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("processWatermark", long.class).getDeclaringClass() == AbstractStreamOperator.class;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };
}
