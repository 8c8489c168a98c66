package io.millrace.runtime.task;

import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.Output;
import io.millrace.operator.StreamOperator;
import io.millrace.runtime.operator.InternalOperatorContext;

/** One operator of a task's chain with its context, wired output and the id its state is stored under. */
record ChainMember(String operatorId, StreamOperator<Object> operator, InternalOperatorContext context, Output<Object> output, OperatorMetricGroup metrics) {}
