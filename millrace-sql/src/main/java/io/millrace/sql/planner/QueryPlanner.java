package io.millrace.sql.planner;

import io.millrace.sql.types.MillraceTypeSystem;
import io.millrace.sql.SqlException;
import io.millrace.sql.catalog.Catalog;
import io.millrace.sql.catalog.CatalogEntry;
import io.millrace.sql.catalog.ColumnInfo;
import io.millrace.sql.parser.SqlText;
import java.util.List;
import org.apache.calcite.config.Lex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.tools.ValidationException;

/**
 * Parses, validates and converts one query with Calcite against the session's catalog, with Flink's lexical rules
 * (identifiers case-sensitive, quoted with back-quotes; keywords in any case). Errors become {@link SqlException}s
 * at the line and column of the script, not of the query piece.
 */
public final class QueryPlanner {
    private final Catalog catalog;
    private final String script;

    /** Plans against {@code catalog}; {@code script} is the whole text, for error carets. */
    public QueryPlanner(Catalog catalog, String script) {
        this.catalog = catalog;
        this.script = script;
    }

    /** A validated query and its logical plan. */
    public record Planned(SqlNode validated, RelNode rel) {}

    /** Plans {@code query}. */
    public Planned plan(SqlText query) {
        return plan(query, null);
    }

    /** Plans {@code query}, with one extra table visible under {@code extraName} (for computed columns). */
    Planned plan(SqlText query, CatalogEntry extra) {
        Planner planner = Frameworks.getPlanner(config(extra));
        try {
            SqlNode parsed;
            try {
                parsed = planner.parse(query.text());
            } catch (SqlParseException e) {
                String first = e.getMessage().lines().findFirst().orElse(e.getMessage());
                int line = e.getPos() == null ? 1 : e.getPos().getLineNum();
                int col = e.getPos() == null ? 1 : e.getPos().getColumnNum();
                throw error("syntax error: " + shorten(first), query, line, col, e);
            }
            SqlNode validated;
            try {
                validated = planner.validate(parsed);
            } catch (ValidationException e) {
                throw fromCalcite(e, query);
            }
            UnsupportedConstructs.check(validated, query, script);
            try {
                RelRoot root = planner.rel(validated);
                return new Planned(validated, root.project());
            } catch (CalciteContextException e) {
                throw fromCalcite(e, query);
            } catch (org.apache.calcite.tools.RelConversionException e) {
                throw new SqlException("cannot plan the query: " + e.getMessage(), query.line(), query.column(), script, e);
            }
        } finally {
            planner.close();
        }
    }

    private static String shorten(String parserMessage) {
        int was = parserMessage.indexOf("Was expecting");
        String m = was > 0 ? parserMessage.substring(0, was).trim() : parserMessage;
        m = m.replaceAll(" at line \\d+, column \\d+", "");
        return m.startsWith("Encountered \"<EOF>\"") ? "the statement ends too early" : m;
    }

    private SqlException fromCalcite(Exception e, SqlText query) {
        Throwable t = e;
        while (t != null && !(t instanceof CalciteContextException)) {
            t = t.getCause();
        }
        if (t instanceof CalciteContextException c) {
            String reason = c.getCause() != null ? c.getCause().getMessage() : c.getMessage();
            return error(reason, query, c.getPosLine(), c.getPosColumn(), e);
        }
        return new SqlException(String.valueOf(e.getMessage()), query.line(), query.column(), script, e);
    }

    SqlException error(String reason, SqlText query, int pieceLine, int pieceColumn, Throwable cause) {
        int line = query.scriptLine(pieceLine);
        int col = query.scriptColumn(pieceLine, pieceColumn);
        return new SqlException(reason, line, col, script, cause);
    }

    /** The columns a validated query gives, in order. */
    public static List<ColumnInfo> columns(RelNode rel) {
        return rel.getRowType().getFieldList().stream().map(f -> ColumnInfo.of(f.getName(), f.getType(), null)).toList();
    }

    private FrameworkConfig config(CatalogEntry extra) {
        SchemaPlus root = Frameworks.createRootSchema(false);
        for (CatalogEntry e : catalog.entries()) {
            root.add(e.name(), CatalogSchema.tableOf(e));
        }
        if (extra != null) {
            AbstractTable t = CatalogSchema.tableOf(extra);
            root.add(extra.name(), t);
        }
        root.add("STRING", f -> f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE));
        return Frameworks.newConfigBuilder()
                .parserConfig(SqlParser.config().withLex(Lex.JAVA).withConformance(SqlConformanceEnum.DEFAULT))
                .sqlValidatorConfig(org.apache.calcite.sql.validate.SqlValidator.Config.DEFAULT.withIdentifierExpansion(true))
                .typeSystem(MillraceTypeSystem.INSTANCE)
                .defaultSchema(root)
                .build();
    }
}
