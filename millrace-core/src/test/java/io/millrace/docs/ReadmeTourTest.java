package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.window.Windows;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The tour in README.md. */
class ReadmeTourTest {

    /** Mean of readings; the accumulator is {sum, count}. */
    static final class Average implements AggregateFunction<SensorReading, double[], Double> {
        @Override
        public double[] createAccumulator() {
            return new double[2];
        }

        @Override
        public double[] add(SensorReading r, double[] acc) {
            acc[0] += r.value();
            acc[1]++;
            return acc;
        }

        @Override
        public Double getResult(double[] acc) {
            return acc[0] / acc[1];
        }

        @Override
        public double[] merge(double[] a, double[] b) {
            return new double[] {a[0] + b[0], a[1] + b[1]};
        }
    }

    @Test
    void tour() {
        CollectSink<Double> averages = new CollectSink<>();
        // tag::tour[]
        Pipeline pipeline = Pipeline.create();                       // parallelism = number of cores

        FactorySimulator factory = new FactorySimulator(SimulatorConfig.builder()
                .machines(20).eventsPerSecond(2_000).duration(Duration.ofHours(1)).unlimitedSpeed().build());

        pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")   // event time, bounded disorder
                .flatMap(FactoryEvent.readings())
                .filter(r -> r.sensor() == Sensor.VIBRATION)
                .keyBy(SensorReading::machineId)                                 // per machine
                .window(Windows.sliding(Duration.ofMinutes(5), Duration.ofSeconds(30)))
                .aggregate(new Average())                                        // computed from shared slices
                .sinkTo(averages);

        pipeline.execute("vibration averages");                             // returns when the input ends
        // end::tour[]
        // 20 machines, one hour: about 120 slides each (a few fewer where a machine was stopped throughout)
        assertThat(averages.size()).isBetween(20 * 100, 20 * 130);
        assertThat(averages.results()).allMatch(v -> v > 0 && v < 20);
    }
}
