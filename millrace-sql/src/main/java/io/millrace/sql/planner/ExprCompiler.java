package io.millrace.sql.planner;

import io.millrace.sql.types.Types;
import io.millrace.sql.types.UnsupportedSql;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.time.temporal.ChronoField;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Compiles Calcite row expressions into {@link Expr} closures, once per plan. Each call node becomes a lambda
 * holding its compiled operands, so evaluating a row runs straight-line Java code: no tree walk over the
 * {@link RexNode}s, no lookup by name. An operator or function not in the list of {@code docs/sql.md} is an
 * {@link UnsupportedSql} naming it.
 */
public final class ExprCompiler {
    private final RexBuilder rexBuilder;

    public ExprCompiler(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /** The closure that evaluates {@code node} on rows of the input it refers to. */
    public Expr compile(RexNode node) {
        RexNode n = RexUtil.expandSearch(rexBuilder, null, node);
        if (n instanceof RexInputRef ref) {
            return field(ref.getIndex(), Types.fieldTypeOrNull(ref.getType()));
        }
        if (n instanceof RexLiteral lit) {
            Object v = literal(lit);
            return row -> v;
        }
        if (n instanceof RexFieldAccess access) {
            return fieldAccess(access);
        }
        if (n instanceof RexCall call) {
            return call(call);
        }
        throw new UnsupportedSql("expression " + n + " is not supported yet");
    }

    /** Reads field {@code i} boxed; the typed getter is chosen here, not per row. */
    static Expr field(int i, FieldType type) {
        if (type == null) {
            throw new UnsupportedSql("field " + i + " has a type not supported yet");
        }
        return switch (type) {
            case BOOLEAN -> row -> row.isNullAt(i) ? null : row.getBoolean(i);
            case INT, DATE, TIME -> row -> row.isNullAt(i) ? null : row.getInt(i);
            case BIGINT, TIMESTAMP -> row -> row.isNullAt(i) ? null : row.getLong(i);
            case FLOAT -> row -> row.isNullAt(i) ? null : row.getFloat(i);
            case DOUBLE -> row -> row.isNullAt(i) ? null : row.getDouble(i);
            case STRING -> row -> row.getString(i);
            case DECIMAL -> row -> row.getDecimal(i);
            case ROW -> row -> row.getRow(i);
        };
    }

    /** {@code expr.field} of a ROW: null when the row is null, else the nested row's field boxed. */
    private Expr fieldAccess(RexFieldAccess access) {
        Expr of = compile(access.getReferenceExpr());
        int i = access.getField().getIndex();
        return row -> {
            Row r = (Row) of.eval(row);
            return r == null ? null : r.getField(i);
        };
    }

    /** {@code ROW(a, b, ...)}: a nested row of the call's type. */
    private Expr rowConstructor(RexCall call) {
        Expr[] fields = compileAll(call.getOperands()).toArray(new Expr[0]);
        RowType type = Types.rowType(call.getType());
        return row -> {
            Object[] values = new Object[fields.length];
            for (int k = 0; k < values.length; k++) {
                Object v = fields[k].eval(row);
                values[k] = v == null ? null : type.type(k) == FieldType.ROW ? Values.conform((Row) v, type.rowType(k))
                        : type.type(k) == FieldType.DECIMAL ? Values.fit(Values.toDecimal(v), type.precision(k), type.scale(k))
                        : v.getClass() == type.type(k).javaType() ? v : Values.cast(v, type.type(k));
            }
            return Row.of(type, values);
        };
    }

    static Object literal(RexLiteral lit) {
        if (lit.isNull()) {
            return null;
        }
        RelDataType t = lit.getType();
        switch (t.getSqlTypeName()) {
            case BOOLEAN:
                return lit.getValueAs(Boolean.class);
            case CHAR:
            case VARCHAR:
                return lit.getValueAs(String.class);
            case TIMESTAMP:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return lit.getValueAs(Long.class);
            case DATE:
            case TIME:
                return lit.getValueAs(Integer.class);
            case SYMBOL:
                return lit.getValue();
            default:
                break;
        }
        if (SqlTypeName.INTERVAL_TYPES.contains(t.getSqlTypeName())) {
            if (t.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                throw new UnsupportedSql("year-month intervals (" + lit + ") are not supported yet: use days, hours, minutes or seconds");
            }
            return lit.getValueAs(BigDecimal.class).longValue();
        }
        BigDecimal d = lit.getValueAs(BigDecimal.class);
        if (d == null) {
            throw new UnsupportedSql("literal " + lit + " is not supported yet");
        }
        FieldType ft = Types.fieldTypeOrNull(t);
        if (ft == null) {
            throw new UnsupportedSql("literal " + lit + " of type " + t + " is not supported yet");
        }
        if (ft == FieldType.DECIMAL) {
            return d.setScale(t.getScale(), java.math.RoundingMode.HALF_UP);
        }
        return isIntegral(ft) ? Values.cast(d.longValue(), ft) : Values.cast(d.doubleValue(), ft);
    }

    private Expr call(RexCall call) {
        SqlKind kind = call.getKind();
        RelDataType type = call.getType();
        switch (kind) {
            case CAST:
                return cast(call);
            case ROW:
                return rowConstructor(call);
            case CASE:
                return caseWhen(compileAll(call.getOperands()));
            case AND:
                return and(compileAll(call.getOperands()));
            case OR:
                return or(compileAll(call.getOperands()));
            case NOT: {
                Expr a = compile(call.getOperands().get(0));
                return row -> {
                    Object v = a.eval(row);
                    return v == null ? null : !(Boolean) v;
                };
            }
            case IS_NULL: {
                Expr a = compile(call.getOperands().get(0));
                return row -> a.eval(row) == null;
            }
            case IS_NOT_NULL: {
                Expr a = compile(call.getOperands().get(0));
                return row -> a.eval(row) != null;
            }
            case IS_TRUE: {
                Expr a = compile(call.getOperands().get(0));
                return row -> Boolean.TRUE.equals(a.eval(row));
            }
            case IS_NOT_TRUE: {
                Expr a = compile(call.getOperands().get(0));
                return row -> !Boolean.TRUE.equals(a.eval(row));
            }
            case IS_FALSE: {
                Expr a = compile(call.getOperands().get(0));
                return row -> Boolean.FALSE.equals(a.eval(row));
            }
            case IS_NOT_FALSE: {
                Expr a = compile(call.getOperands().get(0));
                return row -> !Boolean.FALSE.equals(a.eval(row));
            }
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                return comparison(kind, compile(call.getOperands().get(0)), compile(call.getOperands().get(1)));
            case PLUS:
            case MINUS:
            case TIMES:
            case DIVIDE:
            case MOD:
                return arithmetic(kind, call, compile(call.getOperands().get(0)), compile(call.getOperands().get(1)));
            case MINUS_PREFIX: {
                Expr a = compile(call.getOperands().get(0));
                FieldType ft = Types.fieldTypeOrNull(type);
                if (ft == FieldType.DECIMAL) {
                    return row -> {
                        Object v = a.eval(row);
                        return v == null ? null : Values.toDecimal(v).negate();
                    };
                }
                return row -> {
                    Object v = a.eval(row);
                    if (v == null) {
                        return null;
                    }
                    return isIntegral(ft) ? Values.cast(-((Number) v).longValue(), ft) : Values.cast(-((Number) v).doubleValue(), ft);
                };
            }
            case PLUS_PREFIX:
                return compile(call.getOperands().get(0));
            case COALESCE: {
                List<Expr> all = compileAll(call.getOperands());
                Expr[] arr = all.toArray(new Expr[0]);
                return row -> {
                    for (Expr e : arr) {
                        Object v = e.eval(row);
                        if (v != null) {
                            return v;
                        }
                    }
                    return null;
                };
            }
            case LIKE:
                return like(call);
            case EXTRACT:
                return extract(call);
            case REINTERPRET: {
                // an interval's milliseconds as a number, or back (TIMESTAMPDIFF): the value stays as it is
                RexNode operand = call.getOperands().get(0);
                boolean millis = operand.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME
                        || call.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME;
                if (!millis) {
                    throw new UnsupportedSql("Reinterpret of " + operand.getType() + " as " + call.getType() + " is not supported yet");
                }
                return compile(operand);
            }
            default:
                return new ScalarFunctions(this).function(call);
        }
    }

    /**
     * Arithmetic with a day-time interval result, in milliseconds (as {@code TIMESTAMPADD} and {@code TIMESTAMPDIFF}
     * become): the difference of two timestamps, a sum or difference of intervals, an interval times or divided by a
     * whole number.
     */
    private static Expr dayTimeInterval(SqlKind kind, RexCall call, Expr a, Expr b) {
        if (kind == SqlKind.MOD) {
            throw new UnsupportedSql("interval arithmetic (" + call + ") is not supported yet");
        }
        String text = call.toString();
        return row -> {
            Object x = a.eval(row);
            Object y = x == null ? null : b.eval(row);
            if (y == null) {
                return null;
            }
            long l = ((Number) x).longValue();
            long r = ((Number) y).longValue();
            return switch (kind) {
                case PLUS -> Math.addExact(l, r);
                case MINUS -> Math.subtractExact(l, r);
                case TIMES -> Math.multiplyExact(l, r);
                default -> {
                    if (r == 0) {
                        throw new ArithmeticException("division by zero in " + text);
                    }
                    yield l / r;
                }
            };
        };
    }

    private static boolean isIntegral(FieldType t) {
        return t == FieldType.INT || t == FieldType.BIGINT || t == FieldType.TIMESTAMP;
    }

    List<Expr> compileAll(List<RexNode> nodes) {
        List<Expr> out = new ArrayList<>(nodes.size());
        for (RexNode n : nodes) {
            out.add(compile(n));
        }
        return out;
    }

    private Expr cast(RexCall call) {
        RexNode operand = call.getOperands().get(0);
        Expr a = compile(operand);
        FieldType target = Types.fieldTypeOrNull(call.getType());
        if (target == null) {
            throw new UnsupportedSql("CAST to " + Types.sqlName(call.getType()) + " is not supported yet");
        }
        FieldType source = Types.fieldTypeOrNull(operand.getType());
        if (target == FieldType.DECIMAL) {
            int precision = call.getType().getPrecision();
            int scale = call.getType().getScale();
            if (source == FieldType.DATE || source == FieldType.TIME || source == FieldType.TIMESTAMP || source == FieldType.ROW) {
                throw new UnsupportedSql("CAST from " + Types.sqlName(operand.getType()) + " to " + Types.sqlName(call.getType()) + " is not supported");
            }
            boolean nullable = call.getType().isNullable();
            String type = Types.sqlName(call.getType());
            return row -> {
                Object v = a.eval(row);
                BigDecimal d = Values.castDecimal(v, precision, scale);
                if (d == null && v != null && !nullable) {
                    throw new ArithmeticException("CAST of " + Values.toDecimal(v).toPlainString() + " to " + type + " overflows: it has more than "
                            + (precision - scale) + " digits before the point");
                }
                return d;
            };
        }
        if (target == FieldType.ROW || source == FieldType.ROW) {
            RowType rowType = target == source ? Types.rowType(call.getType()) : null;
            if (rowType == null || !Values.sameShape(Types.rowType(operand.getType()), rowType)) {
                throw new UnsupportedSql("CAST from " + Types.sqlName(operand.getType()) + " to " + Types.sqlName(call.getType())
                        + " is not supported yet: a ROW casts only to a ROW of the same field types");
            }
            return row -> Values.conform((Row) a.eval(row), rowType);
        }
        if (source == FieldType.TIMESTAMP && target == FieldType.STRING) {
            return row -> {
                Object v = a.eval(row);
                return v == null ? null : Values.formatTimestamp((Long) v);
            };
        }
        if (source == target) {
            return a;
        }
        if (source == FieldType.DATE || source == FieldType.TIME || target == FieldType.DATE || target == FieldType.TIME) {
            FieldType from = source;
            return row -> Values.castTemporal(a.eval(row), from, target);
        }
        return row -> Values.cast(a.eval(row), target);
    }

    private static Expr caseWhen(List<Expr> ops) {
        Expr[] arr = ops.toArray(new Expr[0]);
        return row -> {
            int i = 0;
            for (; i + 1 < arr.length; i += 2) {
                if (Boolean.TRUE.equals(arr[i].eval(row))) {
                    return arr[i + 1].eval(row);
                }
            }
            return i < arr.length ? arr[i].eval(row) : null;
        };
    }

    private static Expr and(List<Expr> ops) {
        Expr[] arr = ops.toArray(new Expr[0]);
        return row -> {
            boolean unknown = false;
            for (Expr e : arr) {
                Object v = e.eval(row);
                if (v == null) {
                    unknown = true;
                } else if (!(Boolean) v) {
                    return Boolean.FALSE;
                }
            }
            return unknown ? null : Boolean.TRUE;
        };
    }

    private static Expr or(List<Expr> ops) {
        Expr[] arr = ops.toArray(new Expr[0]);
        return row -> {
            boolean unknown = false;
            for (Expr e : arr) {
                Object v = e.eval(row);
                if (v == null) {
                    unknown = true;
                } else if ((Boolean) v) {
                    return Boolean.TRUE;
                }
            }
            return unknown ? null : Boolean.FALSE;
        };
    }

    private static Expr comparison(SqlKind kind, Expr a, Expr b) {
        return switch (kind) {
            case EQUALS -> row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                return y == null ? null : Values.compare(x, y) == 0;
            };
            case NOT_EQUALS -> row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                return y == null ? null : Values.compare(x, y) != 0;
            };
            case LESS_THAN -> row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                return y == null ? null : Values.compare(x, y) < 0;
            };
            case LESS_THAN_OR_EQUAL -> row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                return y == null ? null : Values.compare(x, y) <= 0;
            };
            case GREATER_THAN -> row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                return y == null ? null : Values.compare(x, y) > 0;
            };
            default -> row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                return y == null ? null : Values.compare(x, y) >= 0;
            };
        };
    }

    private static Expr arithmetic(SqlKind kind, RexCall call, Expr a, Expr b) {
        if (call.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
            return dayTimeInterval(kind, call, a, b);
        }
        FieldType t = Types.fieldTypeOrNull(call.getType());
        if (t == null) {
            throw new UnsupportedSql("operator " + call.getOperator().getName() + " with result type " + call.getType() + " is not supported yet");
        }
        if (t == FieldType.TIMESTAMP) {
            // timestamp plus or minus a day-time interval in milliseconds
            boolean minus = kind == SqlKind.MINUS;
            if (kind != SqlKind.PLUS && kind != SqlKind.MINUS) {
                throw new UnsupportedSql("operator " + call.getOperator().getName() + " on timestamps is not supported");
            }
            boolean intervalFirst = SqlTypeName.INTERVAL_TYPES.contains(call.getOperands().get(0).getType().getSqlTypeName());
            return row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                if (y == null) {
                    return null;
                }
                long ts = intervalFirst ? (Long) y : (Long) x;
                long iv = intervalFirst ? (Long) x : (Long) y;
                return minus ? ts - iv : ts + iv;
            };
        }
        if (SqlTypeName.INTERVAL_TYPES.contains(call.getType().getSqlTypeName())) {
            throw new UnsupportedSql("interval arithmetic (" + call + ") is not supported yet");
        }
        if (t == FieldType.DECIMAL) {
            return decimalArithmetic(kind, call, a, b);
        }
        if (t == FieldType.INT || t == FieldType.BIGINT) {
            boolean isInt = t == FieldType.INT;
            String text = call.toString();
            return row -> {
                Object x = a.eval(row);
                Object y = x == null ? null : b.eval(row);
                if (y == null) {
                    return null;
                }
                long l = ((Number) x).longValue();
                long r = ((Number) y).longValue();
                long v = switch (kind) {
                    case PLUS -> l + r;
                    case MINUS -> l - r;
                    case TIMES -> l * r;
                    case DIVIDE -> {
                        if (r == 0) {
                            throw new ArithmeticException("division by zero in " + text);
                        }
                        yield l / r;
                    }
                    default -> {
                        if (r == 0) {
                            throw new ArithmeticException("division by zero in " + text);
                        }
                        yield l % r;
                    }
                };
                return isInt ? (Object) (int) v : (Object) v;
            };
        }
        boolean isFloat = t == FieldType.FLOAT;
        return row -> {
            Object x = a.eval(row);
            Object y = x == null ? null : b.eval(row);
            if (y == null) {
                return null;
            }
            double l = ((Number) x).doubleValue();
            double r = ((Number) y).doubleValue();
            double v = switch (kind) {
                case PLUS -> l + r;
                case MINUS -> l - r;
                case TIMES -> l * r;
                case DIVIDE -> l / r;
                default -> l % r;
            };
            return isFloat ? (Object) (float) v : (Object) v;
        };
    }

    /**
     * Arithmetic with a DECIMAL result: exact, rounded half-up to the result type's scale (Flink's result types, see
     * {@link io.millrace.sql.types.MillraceTypeSystem}); null when the result has too many digits (Flink's overflow),
     * or a failure naming the expression if its type is NOT NULL; division or modulo by zero fails naming the expression.
     */
    private static Expr decimalArithmetic(SqlKind kind, RexCall call, Expr a, Expr b) {
        int precision = call.getType().getPrecision();
        int scale = call.getType().getScale();
        boolean nullable = call.getType().isNullable();
        String type = Types.sqlName(call.getType());
        String text = call.toString();
        return row -> {
            Object x = a.eval(row);
            Object y = x == null ? null : b.eval(row);
            if (y == null) {
                return null;
            }
            BigDecimal l = Values.toDecimal(x);
            BigDecimal r = Values.toDecimal(y);
            if ((kind == SqlKind.DIVIDE || kind == SqlKind.MOD) && r.signum() == 0) {
                throw new ArithmeticException("division by zero in " + text);
            }
            BigDecimal v = switch (kind) {
                case PLUS -> l.add(r);
                case MINUS -> l.subtract(r);
                case TIMES -> l.multiply(r);
                case DIVIDE -> l.divide(r, scale, java.math.RoundingMode.HALF_UP);
                default -> l.remainder(r);
            };
            BigDecimal fitted = Values.fit(v, precision, scale);
            if (fitted == null && !nullable) {
                throw new ArithmeticException(text + " = " + v.toPlainString() + " overflows its type " + type);
            }
            return fitted;
        };
    }

    private Expr like(RexCall call) {
        Expr s = compile(call.getOperands().get(0));
        RexNode p = call.getOperands().get(1);
        if (!(p instanceof RexLiteral lit) || call.getOperands().size() > 2) {
            throw new UnsupportedSql("LIKE with a pattern that is not a literal, or with ESCAPE, is not supported yet");
        }
        Pattern pattern = Pattern.compile(likeToRegex(lit.getValueAs(String.class)), Pattern.DOTALL);
        boolean negated = call.getOperator().getName().toUpperCase(Locale.ROOT).contains("NOT");
        return row -> {
            Object v = s.eval(row);
            return v == null ? null : pattern.matcher((String) v).matches() != negated;
        };
    }

    static String likeToRegex(String like) {
        StringBuilder b = new StringBuilder();
        for (char c : like.toCharArray()) {
            if (c == '%') {
                b.append(".*");
            } else if (c == '_') {
                b.append('.');
            } else {
                b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return b.toString();
    }

    private Expr extract(RexCall call) {
        TimeUnitRange unit = (TimeUnitRange) ((RexLiteral) call.getOperands().get(0)).getValue();
        Expr ts = compile(call.getOperands().get(1));
        if (!SqlTypeName.DATETIME_TYPES.contains(call.getOperands().get(1).getType().getSqlTypeName())) {
            throw new UnsupportedSql("EXTRACT from " + call.getOperands().get(1).getType() + " is not supported yet: only from timestamps");
        }
        java.time.temporal.TemporalField field = switch (unit) {
            case YEAR -> ChronoField.YEAR;
            case MONTH -> ChronoField.MONTH_OF_YEAR;
            case DAY -> ChronoField.DAY_OF_MONTH;
            case HOUR -> ChronoField.HOUR_OF_DAY;
            case MINUTE -> ChronoField.MINUTE_OF_HOUR;
            case SECOND -> ChronoField.SECOND_OF_MINUTE;
            case DOW -> ChronoField.DAY_OF_WEEK;
            case DOY -> ChronoField.DAY_OF_YEAR;
            case MILLISECOND -> ChronoField.MILLI_OF_SECOND;
            default -> throw new UnsupportedSql("EXTRACT(" + unit + " FROM ...) is not supported yet");
        };
        boolean dow = unit == TimeUnitRange.DOW;
        return row -> {
            Object v = ts.eval(row);
            if (v == null) {
                return null;
            }
            long f = java.time.Instant.ofEpochMilli((Long) v).atOffset(java.time.ZoneOffset.UTC).getLong(field);
            return dow ? f % 7 + 1 : f; // SQL: Sunday is 1
        };
    }
}
