package io.millrace.sql.planner;

import io.millrace.api.row.FieldType;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.Values;
import io.millrace.sql.types.Types;
import io.millrace.sql.types.UnsupportedSql;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;

/** The scalar functions called by name (UPPER, SUBSTRING, ROUND, ...), compiled into closures for {@link ExprCompiler}. */
final class ScalarFunctions {
    private final ExprCompiler compiler;

    ScalarFunctions(ExprCompiler compiler) {
        this.compiler = compiler;
    }

    Expr function(RexCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<Expr> ops = compiler.compileAll(call.getOperands());
        FieldType t = Types.fieldTypeOrNull(call.getType());
        switch (name) {
            case "UPPER":
                return unaryString(ops.get(0), s -> s.toUpperCase(Locale.ROOT));
            case "LOWER":
                return unaryString(ops.get(0), s -> s.toLowerCase(Locale.ROOT));
            case "CHAR_LENGTH":
            case "CHARACTER_LENGTH": {
                Expr a = ops.get(0);
                return row -> {
                    Object v = a.eval(row);
                    return v == null ? null : ((String) v).length();
                };
            }
            case "||":
            case "CONCAT": {
                Expr[] arr = ops.toArray(new Expr[0]);
                return row -> {
                    StringBuilder b = new StringBuilder();
                    for (Expr e : arr) {
                        Object v = e.eval(row);
                        if (v == null) {
                            return null;
                        }
                        b.append(v);
                    }
                    return b.toString();
                };
            }
            case "SUBSTRING": {
                Expr s = ops.get(0);
                Expr from = ops.get(1);
                Expr len = ops.size() > 2 ? ops.get(2) : null;
                return row -> {
                    Object v = s.eval(row);
                    Object f = from.eval(row);
                    Object l = len == null ? Integer.MAX_VALUE : len.eval(row);
                    if (v == null || f == null || l == null) {
                        return null;
                    }
                    String str = (String) v;
                    int start = Math.max(((Number) f).intValue(), 1) - 1;
                    if (start >= str.length()) {
                        return "";
                    }
                    long end = Math.min(str.length(), (long) ((Number) f).intValue() - 1 + ((Number) l).longValue());
                    return end <= start ? "" : str.substring(start, (int) end);
                };
            }
            case "TRIM": {
                String flag = String.valueOf(((RexLiteral) call.getOperands().get(0)).getValue());
                Expr chars = ops.get(1);
                Expr s = ops.get(2);
                boolean leading = !flag.equals("TRAILING");
                boolean trailing = !flag.equals("LEADING");
                return row -> {
                    Object v = s.eval(row);
                    Object c = chars.eval(row);
                    if (v == null || c == null) {
                        return null;
                    }
                    String str = (String) v;
                    String cs = (String) c;
                    int a = 0;
                    int b = str.length();
                    while (leading && a < b && cs.indexOf(str.charAt(a)) >= 0) {
                        a++;
                    }
                    while (trailing && b > a && cs.indexOf(str.charAt(b - 1)) >= 0) {
                        b--;
                    }
                    return str.substring(a, b);
                };
            }
            case "ABS":
                if (t == FieldType.DECIMAL) {
                    return decimal1(ops.get(0), BigDecimal::abs);
                }
                return numeric1(ops.get(0), t, Math::abs, Math::abs);
            case "FLOOR":
                if (ops.size() > 1) {
                    throw new UnsupportedSql("FLOOR(... TO unit) is not supported yet");
                }
                if (t == FieldType.DECIMAL) {
                    return decimal1(ops.get(0), d -> d.setScale(0, java.math.RoundingMode.FLOOR));
                }
                return numeric1(ops.get(0), t, x -> x, Math::floor);
            case "CEIL":
            case "CEILING":
                if (ops.size() > 1) {
                    throw new UnsupportedSql("CEIL(... TO unit) is not supported yet");
                }
                if (t == FieldType.DECIMAL) {
                    return decimal1(ops.get(0), d -> d.setScale(0, java.math.RoundingMode.CEILING));
                }
                return numeric1(ops.get(0), t, x -> x, Math::ceil);
            case "SQRT":
                return numeric1(ops.get(0), FieldType.DOUBLE, x -> x, Math::sqrt);
            case "LN":
                return numeric1(ops.get(0), FieldType.DOUBLE, x -> x, Math::log);
            case "EXP":
                return numeric1(ops.get(0), FieldType.DOUBLE, x -> x, Math::exp);
            case "POWER": {
                Expr a = ops.get(0);
                Expr b = ops.get(1);
                return row -> {
                    Object x = a.eval(row);
                    Object y = x == null ? null : b.eval(row);
                    return y == null ? null : Math.pow(((Number) x).doubleValue(), ((Number) y).doubleValue());
                };
            }
            case "ROUND": {
                Expr a = ops.get(0);
                Expr d = ops.size() > 1 ? ops.get(1) : row -> 0;
                return row -> {
                    Object x = a.eval(row);
                    Object p = x == null ? null : d.eval(row);
                    if (p == null) {
                        return null;
                    }
                    if (x instanceof BigDecimal exact) {
                        return exact.setScale(((Number) p).intValue(), java.math.RoundingMode.HALF_UP);
                    }
                    BigDecimal r = BigDecimal.valueOf(((Number) x).doubleValue()).setScale(((Number) p).intValue(), java.math.RoundingMode.HALF_UP);
                    return Values.cast(r.doubleValue(), t);
                };
            }
            case "SPLIT_INDEX": {
                Expr s = ops.get(0);
                Expr delimiter = ops.get(1);
                Expr index = ops.get(2);
                return row -> {
                    Object v = s.eval(row);
                    Object d = v == null ? null : delimiter.eval(row);
                    Object n = d == null ? null : index.eval(row);
                    return n == null ? null : splitIndex((String) v, (String) d, ((Number) n).intValue());
                };
            }
            case "REGEXP_EXTRACT": {
                Expr s = ops.get(0);
                Expr group = ops.size() > 2 ? ops.get(2) : row -> 0;
                if (call.getOperands().get(1) instanceof RexLiteral lit) {
                    java.util.regex.Pattern pattern = compileRegex(lit.getValueAs(String.class));
                    return row -> {
                        Object v = s.eval(row);
                        Object g = v == null ? null : group.eval(row);
                        return g == null || pattern == null ? null : extract(pattern, (String) v, ((Number) g).intValue());
                    };
                }
                Expr regex = ops.get(1);
                return row -> {
                    Object v = s.eval(row);
                    Object r = v == null ? null : regex.eval(row);
                    Object g = r == null ? null : group.eval(row);
                    java.util.regex.Pattern pattern = g == null ? null : compileRegex((String) r);
                    return pattern == null ? null : extract(pattern, (String) v, ((Number) g).intValue());
                };
            }
            case "TO_TIMESTAMP": {
                Expr s = ops.get(0);
                if (ops.size() == 1 || call.getOperands().get(1) instanceof RexLiteral) {
                    TemporalFunctions.Pattern f = new TemporalFunctions.Pattern(ops.size() == 1 ? TemporalFunctions.DEFAULT_FORMAT
                            : ((RexLiteral) call.getOperands().get(1)).getValueAs(String.class));
                    return row -> {
                        Object v = s.eval(row);
                        return v == null ? null : TemporalFunctions.parse((String) v, f.get());
                    };
                }
                Expr format = ops.get(1);
                return row -> {
                    Object v = s.eval(row);
                    Object p = v == null ? null : format.eval(row);
                    return p == null ? null : TemporalFunctions.parse((String) v, TemporalFunctions.formatter((String) p));
                };
            }
            case "CURRENT_WATERMARK":
                return row -> io.millrace.sql.runtime.CurrentWatermark.get();
            case "DATE_FORMAT": {
                Expr time = ops.get(0);
                boolean text = Types.fieldTypeOrNull(call.getOperands().get(0).getType()) == FieldType.STRING;
                Expr format = ops.get(1);
                TemporalFunctions.Pattern fixed = call.getOperands().get(1) instanceof RexLiteral lit
                        ? new TemporalFunctions.Pattern(lit.getValueAs(String.class)) : null;
                TemporalFunctions.Pattern readText = new TemporalFunctions.Pattern(TemporalFunctions.DEFAULT_FORMAT);
                return row -> {
                    Object v = time.eval(row);
                    if (v == null) {
                        return null;
                    }
                    Long millis = text ? TemporalFunctions.parse((String) v, readText.get()) : (Long) v;
                    if (millis == null) {
                        return null;
                    }
                    if (fixed != null) {
                        return TemporalFunctions.format(millis, fixed.get());
                    }
                    Object p = format.eval(row);
                    return p == null ? null : TemporalFunctions.format(millis, TemporalFunctions.formatter((String) p));
                };
            }
            default:
                throw new UnsupportedSql("function " + call.getOperator().getName() + " is not supported yet");
        }
    }

    /** Piece {@code index} of {@code s} split at every {@code delimiter} (empty pieces kept), or null. */
    static String splitIndex(String s, String delimiter, int index) {
        if (index < 0 || s.isEmpty()) {
            return null;
        }
        String[] pieces = delimiter.isEmpty() ? s.trim().split("\\s+") : s.split(java.util.regex.Pattern.quote(delimiter), -1);
        return index < pieces.length ? pieces[index] : null;
    }

    /** Null for a regular expression that does not compile (Flink's REGEXP_EXTRACT gives null then). */
    static java.util.regex.Pattern compileRegex(String regex) {
        try {
            return java.util.regex.Pattern.compile(regex);
        } catch (java.util.regex.PatternSyntaxException e) {
            return null;
        }
    }

    static String extract(java.util.regex.Pattern pattern, String s, int group) {
        java.util.regex.Matcher m = pattern.matcher(s);
        if (!m.find() || group < 0 || group > m.groupCount()) {
            return null;
        }
        return m.group(group);
    }

    private static Expr unaryString(Expr a, SerializableUnary f) {
        return row -> {
            Object v = a.eval(row);
            return v == null ? null : f.apply((String) v);
        };
    }

    private interface SerializableUnary extends java.io.Serializable {
        String apply(String s);
    }

    private interface DecimalOp extends java.io.Serializable {
        BigDecimal apply(BigDecimal x);
    }

    private static Expr decimal1(Expr a, DecimalOp f) {
        return row -> {
            Object v = a.eval(row);
            return v == null ? null : f.apply(Values.toDecimal(v));
        };
    }

    private interface LongOp extends java.io.Serializable {
        long apply(long x);
    }

    private interface DoubleOp extends java.io.Serializable {
        double apply(double x);
    }

    private static Expr numeric1(Expr a, FieldType t, LongOp integral, DoubleOp floating) {
        if (t == FieldType.INT || t == FieldType.BIGINT) {
            return row -> {
                Object v = a.eval(row);
                return v == null ? null : Values.cast(integral.apply(((Number) v).longValue()), t);
            };
        }
        FieldType out = t == null ? FieldType.DOUBLE : t;
        return row -> {
            Object v = a.eval(row);
            return v == null ? null : Values.cast(floating.apply(((Number) v).doubleValue()), out);
        };
    }
}
