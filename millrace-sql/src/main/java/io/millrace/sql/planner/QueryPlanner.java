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
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Parses, validates and converts one query with Calcite against the session's catalog, with Flink's lexical rules
 * (identifiers case-sensitive, quoted with back-quotes; keywords in any case). Errors become {@link SqlException}s
 * at the line and column of the script, not of the query piece.
 */
public final class QueryPlanner {
    private final Catalog catalog;
    private final String script;
    /** The text of the query being planned as Calcite sees it (see {@link FlinkWords}). */
    private FlinkWords.Rewritten rewritten;

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
        Conversion c = new Conversion(schema(extra));
        rewritten = FlinkWords.quote(query.text());
        SqlNode parsed;
        try {
            parsed = SqlParser.create(rewritten.text(), PARSER).parseQuery();
        } catch (SqlParseException e) {
            String first = e.getMessage().lines().findFirst().orElse(e.getMessage());
            int line = e.getPos() == null ? 1 : e.getPos().getLineNum();
            int col = e.getPos() == null ? 1 : e.getPos().getColumnNum();
            throw error("syntax error: " + shorten(first), query, line, col, e);
        }
        SqlValidator validator = c.validator();
        SqlNode validated;
        try {
            validated = validator.validate(SessionPartitioning.rewrite(parsed));
        } catch (CalciteContextException e) {
            throw fromCalcite(e, query);
        } catch (RuntimeException e) {
            throw fromCalcite(e, query);
        }
        UnsupportedConstructs.check(validated, query, script);
        try {
            return new Planned(validated, c.convert(validator, validated).project());
        } catch (CalciteContextException e) {
            throw fromCalcite(e, query);
        }
    }

    private static final SqlParser.Config PARSER = SqlParser.config().withLex(Lex.JAVA).withConformance(SqlConformanceEnum.DEFAULT);

    /**
     * Validation and conversion to relational algebra against one schema. Done here rather than with Calcite's
     * {@code Planner} because that one flattens ROW columns into their fields (and cannot flatten a nested row
     * projected as a whole); Millrace keeps nested rows as values and reads their fields with field accesses.
     */
    private static final class Conversion implements org.apache.calcite.plan.RelOptTable.ViewExpander {
        private final JavaTypeFactory types = new JavaTypeFactoryImpl(MillraceTypeSystem.INSTANCE);
        private final CalciteCatalogReader reader;
        private final RelOptCluster cluster;

        Conversion(SchemaPlus root) {
            java.util.Properties props = new java.util.Properties();
            props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
            this.reader = new CalciteCatalogReader(CalciteSchema.from(root), List.of(), types, new CalciteConnectionConfigImpl(props));
            this.cluster = RelOptCluster.create(new HepPlanner(HepProgram.builder().build()), new RexBuilder(types));
        }

        SqlValidator validator() {
            return SqlValidatorUtil.newValidator(SqlOperatorTables.chain(WindowFunctions.withStandardOperators(), FlinkFunctions.table(), reader), reader, types,
                    SqlValidator.Config.DEFAULT.withIdentifierExpansion(true).withConformance(SqlConformanceEnum.DEFAULT));
        }

        RelRoot convert(SqlValidator validator, SqlNode validated) {
            SqlToRelConverter converter = new SqlToRelConverter(this, validator, reader, cluster, StandardConvertletTable.INSTANCE,
                    SqlToRelConverter.config().withTrimUnusedFields(false));
            RelRoot root = converter.convertQuery(validated, false, true);
            return root.withRel(RelDecorrelator.decorrelateQuery(root.rel, RelFactories.LOGICAL_BUILDER.create(cluster, null)));
        }

        @Override
        public RelRoot expandView(RelDataType rowType, String queryString, List<String> schemaPath, List<String> viewPath) {
            SqlNode parsed;
            try {
                parsed = SqlParser.create(FlinkWords.quote(queryString).text(), PARSER).parseQuery();
            } catch (SqlParseException e) {
                throw new IllegalStateException("the text of view " + viewPath + " does not parse any more: " + e.getMessage(), e);
            }
            SqlValidator validator = validator();
            return convert(validator, validator.validate(SessionPartitioning.rewrite(parsed)));
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
        int pieceCol = rewritten == null ? pieceColumn : rewritten.originalColumn(pieceLine, pieceColumn);
        int line = query.scriptLine(pieceLine);
        int col = query.scriptColumn(pieceLine, pieceCol);
        return new SqlException(reason, line, col, script, cause);
    }

    /** The columns a validated query gives, in order. */
    public static List<ColumnInfo> columns(RelNode rel) {
        return rel.getRowType().getFieldList().stream().map(f -> ColumnInfo.of(f.getName(), f.getType(), null)).toList();
    }

    private SchemaPlus schema(CatalogEntry extra) {
        SchemaPlus root = Frameworks.createRootSchema(false);
        for (CatalogEntry e : catalog.entries()) {
            root.add(e.name(), CatalogSchema.tableOf(e));
        }
        if (extra != null) {
            AbstractTable t = CatalogSchema.tableOf(extra);
            root.add(extra.name(), t);
        }
        root.add("STRING", f -> f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE));
        return root;
    }
}
