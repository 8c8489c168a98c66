package io.millrace.runtime.task;

import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.operator.OperatorContext;
import io.millrace.runtime.operator.Output;
import io.millrace.runtime.operator.StreamOperator;

/** One operator of a task's chain with its context, wired output and the id its state is stored under. */
record ChainMember(String operatorId, StreamOperator<Object> operator, OperatorContext context, Output<Object> output, OperatorMetricGroup metrics) {}
