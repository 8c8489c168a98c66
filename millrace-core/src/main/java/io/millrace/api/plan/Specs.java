package io.millrace.api.plan;

import io.millrace.api.functions.BroadcastProcessFunction;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.FilterFunction;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.sink.Sink;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.source.Source;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import java.util.List;

/** The specs of the basic operators. Window specs live beside the window API. */
public final class Specs {
    private Specs() {}

    public record SourceSpec<T>(Source<T, ?> source, WatermarkStrategy<T> watermarks, BadRecordPolicy badRecords)
            implements OperatorSpec {
        @Override
        public String defaultName() {
            return "source";
        }
    }

    public record MapSpec<I, O>(MapFunction<I, O> function) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "map";
        }
    }

    public record FilterSpec<T>(FilterFunction<T> function) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "filter";
        }
    }

    public record FlatMapSpec<I, O>(FlatMapFunction<I, O> function) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "flatMap";
        }
    }

    public record ProcessSpec<I, O>(ProcessFunction<I, O> function) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "process";
        }
    }

    public record KeyedProcessSpec<K, I, O>(KeyedProcessFunction<K, I, O> function) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "keyedProcess";
        }

        @Override
        public boolean keyed() {
            return true;
        }
    }

    /** Two inputs; keyed when both input edges are HASH. */
    public record CoProcessSpec<A, B, O>(CoProcessFunction<A, B, O> function, boolean keyed) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "coProcess";
        }
    }

    /** A non-keyed stream (input 0) with a broadcast stream (input 1) and the broadcast states they share. */
    public record BroadcastProcessSpec<A, B, O>(BroadcastProcessFunction<A, B, O> function, List<MapStateDescriptor<?, ?>> descriptors)
            implements OperatorSpec {
        @Override
        public String defaultName() {
            return "broadcastProcess";
        }
    }

    /** A keyed stream (input 0) with a broadcast stream (input 1) and the broadcast states they share. */
    public record KeyedBroadcastProcessSpec<K, A, B, O>(KeyedBroadcastProcessFunction<K, A, B, O> function,
            List<MapStateDescriptor<?, ?>> descriptors) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "keyedBroadcastProcess";
        }

        @Override
        public boolean keyed() {
            return true;
        }
    }

    /** Assigns timestamps and watermarks in the middle of a pipeline (one split per subtask). */
    public record TimestampsSpec<T>(WatermarkStrategy<T> watermarks) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "timestamps";
        }
    }

    public record SinkSpec<T>(Sink<T> sink) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "sink";
        }
    }
}
