package io.millrace.runtime.operator;

/** Whether a sink writer does anything with watermarks: its class has an {@code onWatermark} of its own. */
final class SinkWatermarks {
    private static final ClassValue<Boolean> REACTS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return !type.getMethod("onWatermark", long.class).isDefault();
            } catch (NoSuchMethodException e) {
                return true;
            }
        }
    };

    private SinkWatermarks() {}

    static boolean writerReacts(Object writer) {
        return writer == null || REACTS.get(writer.getClass());
    }
}
