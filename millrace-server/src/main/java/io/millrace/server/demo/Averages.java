package io.millrace.server.demo;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.sim.SensorReading;

/** Mean and maximum of sensor values, as accumulators {@code double[]{sum, count, max}}. */
final class Averages implements AggregateFunction<SensorReading, double[], double[]> {
    @Override
    public double[] createAccumulator() {
        return new double[] {0, 0, Double.NEGATIVE_INFINITY};
    }

    @Override
    public double[] add(SensorReading r, double[] acc) {
        acc[0] += r.value();
        acc[1] += 1;
        acc[2] = Math.max(acc[2], r.value());
        return acc;
    }

    @Override
    public double[] getResult(double[] acc) {
        return acc;
    }

    @Override
    public double[] merge(double[] a, double[] b) {
        return new double[] {a[0] + b[0], a[1] + b[1], Math.max(a[2], b[2])};
    }
}
