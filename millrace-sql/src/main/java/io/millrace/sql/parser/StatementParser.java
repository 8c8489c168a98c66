package io.millrace.sql.parser;

import io.millrace.sql.SqlException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The recursive-descent parser of Millrace's statements: the DDL and session statements ({@code CREATE TABLE},
 * {@code CREATE VIEW}, {@code DROP}, {@code SHOW TABLES}, {@code DESCRIBE}, {@code SET}, {@code RESET},
 * {@code EXPLAIN}, {@code INSERT INTO}, {@code EXECUTE STATEMENT SET BEGIN ... END}, {@code BEGIN STATEMENT SET} and
 * {@code END}) in Flink SQL's syntax. Queries and expressions inside them are not parsed
 * here: they are cut out as {@link SqlText} with their position and handed to Calcite's parser by the planner.
 *
 * <p>Statements in a script end with {@code ;} (the last one may omit it). Errors name the line and column.
 */
public final class StatementParser {
    private static final String STATEMENTS = "CREATE TABLE, CREATE [TEMPORARY] VIEW, DROP TABLE, DROP VIEW, SHOW TABLES, DESCRIBE, SET, RESET, "
            + "INSERT INTO, SELECT, WITH, VALUES, EXPLAIN, EXECUTE STATEMENT SET, BEGIN STATEMENT SET, END";

    private final String sql;
    private final List<Token> tokens;
    private int pos;
    private int end;

    private StatementParser(String sql) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
    }

    /** The statements of a script, in order. */
    public static List<Statement> parse(String script) {
        StatementParser p = new StatementParser(script);
        List<Statement> statements = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < p.tokens.size(); i++) {
            Token t = p.tokens.get(i);
            int head = i == start ? p.statementSetHead(i) : 0;
            if (head > 0) {
                i = p.statementSet(i, head, statements);
                start = i + 1;
                continue;
            }
            if (t.isSymbol(";") || t.kind() == Token.Kind.END) {
                if (i > start) {
                    p.pos = start;
                    p.end = i;
                    statements.add(p.statement());
                }
                start = i + 1;
            }
        }
        return statements;
    }

    /**
     * True when {@code text} holds whole statements only: it ends with {@code ;} outside strings and comments, and an
     * {@code EXECUTE STATEMENT SET BEGIN} in it has its {@code END;}. For a shell that reads a statement over several
     * lines; text that does not tokenize (an unterminated string or comment) is not complete.
     */
    public static boolean isComplete(String text) {
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(text);
        } catch (SqlException e) {
            return false;
        }
        if (tokens.size() < 2 || !tokens.get(tokens.size() - 2).isSymbol(";")) {
            return false;
        }
        StatementParser p = new StatementParser(text);
        int start = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (i == start) {
                int head = p.statementSetHead(i);
                if (head > 0) {
                    int j = i + head;
                    int from = j;
                    boolean ended = false;
                    for (; j < tokens.size() - 1; j++) {
                        if (j == from && tokens.get(j).is("END") && tokens.get(j + 1).isSymbol(";")) {
                            ended = true;
                            j++;
                            break;
                        }
                        if (tokens.get(j).isSymbol(";")) {
                            from = j + 1;
                        }
                    }
                    if (!ended) {
                        return false;
                    }
                    i = j;
                    start = j + 1;
                    continue;
                }
            }
            if (tokens.get(i).isSymbol(";")) {
                start = i + 1;
            }
        }
        return true;
    }

    /**
     * At token {@code i}: the number of tokens of {@code EXECUTE STATEMENT SET BEGIN} or {@code EXPLAIN [PLAN FOR]
     * [EXECUTE] STATEMENT SET BEGIN}, or 0 when no statement set starts there.
     */
    private int statementSetHead(int i) {
        int j = i;
        boolean explain = false;
        if (token(j).is("EXPLAIN")) {
            explain = true;
            j++;
            if (token(j).is("PLAN") && token(j + 1).is("FOR")) {
                j += 2;
            }
        }
        if (token(j).is("EXECUTE")) {
            j++;
        } else if (!explain) {
            return 0;
        }
        return token(j).is("STATEMENT") && token(j + 1).is("SET") && token(j + 2).is("BEGIN") ? j + 3 - i : 0;
    }

    private Token token(int i) {
        return tokens.get(Math.min(i, tokens.size() - 1));
    }

    /**
     * Parses the statement set starting at token {@code first} (its head {@code headLength} tokens long) up to its
     * {@code END}, adds it to {@code out} and returns the index of the token after {@code END} (a {@code ;} or the
     * end of the script).
     */
    private int statementSet(int first, int headLength, List<Statement> out) {
        Token head = tokens.get(first);
        List<Statement.Insert> inserts = new ArrayList<>();
        int start = first + headLength;
        for (int i = start; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (i == start && t.is("END")) {
                Token after = tokens.get(i + 1);
                if (!after.isSymbol(";") && after.kind() != Token.Kind.END) {
                    throw error(after, "expected ';' after the END of the statement set, found " + after.describe());
                }
                if (inserts.isEmpty()) {
                    throw error(t, "a statement set needs at least one INSERT INTO statement between BEGIN and END");
                }
                Statement set = new Statement.StatementSet(List.copyOf(inserts), head.line(), head.column());
                out.add(head.is("EXPLAIN") ? new Statement.Explain(set, head.line(), head.column()) : set);
                return i + 1;
            }
            if (t.kind() == Token.Kind.END) {
                throw error(t, "the statement set started at line " + head.line() + ", column " + head.column()
                        + " has no END: write END; after its INSERT statements");
            }
            if (t.isSymbol(";")) {
                if (i > start) {
                    pos = start;
                    end = i;
                    Statement s = statement();
                    if (!(s instanceof Statement.Insert ins)) {
                        throw error(tokens.get(start), "a statement set holds INSERT INTO statements only, found "
                                + tokens.get(start).describe());
                    }
                    inserts.add(ins);
                }
                start = i + 1;
            }
        }
        throw error(head, "the statement set has no END");
    }

    private Statement statement() {
        Token first = peek();
        Statement s;
        if (first.is("EXPLAIN")) {
            pos++;
            if (peek().is("PLAN")) {
                pos++;
                expectWord("FOR");
            }
            Statement inner = statement();
            if (!(inner instanceof Statement.Query) && !(inner instanceof Statement.Insert)) {
                throw error(first, "EXPLAIN takes a query, an INSERT INTO statement or STATEMENT SET BEGIN ... END");
            }
            return new Statement.Explain(inner, first.line(), first.column());
        } else if (first.is("CREATE")) {
            s = create();
        } else if (first.is("DROP")) {
            s = drop();
        } else if (first.is("SHOW")) {
            pos++;
            Token what = next();
            if (!what.is("TABLES")) {
                throw error(what, "expected TABLES after SHOW, found " + what.describe() + " (SHOW TABLES is the SHOW statement so far)");
            }
            s = new Statement.ShowTables(first.line(), first.column());
        } else if (first.is("DESCRIBE") || first.is("DESC")) {
            pos++;
            s = new Statement.Describe(identifier("a table or view name"), first.line(), first.column());
        } else if (first.is("SET")) {
            s = set();
        } else if (first.is("BEGIN")) {
            pos++;
            expectWord("STATEMENT");
            expectWord("SET");
            s = new Statement.BeginStatementSet(first.line(), first.column());
        } else if (first.is("END")) {
            pos++;
            s = new Statement.EndStatementSet(first.line(), first.column());
        } else if (first.is("RESET")) {
            pos++;
            String key = peek().kind() == Token.Kind.END || pos >= end ? null : string("the key to reset, in quotes");
            s = new Statement.Reset(key, first.line(), first.column());
        } else if (first.is("INSERT")) {
            pos++;
            expectWord("INTO");
            String table = identifier("the table to insert into");
            if (pos >= end) {
                throw error(peek(), "INSERT INTO " + table + " needs a query (SELECT ...)");
            }
            s = new Statement.Insert(table, rest(), first.line(), first.column());
            return s;
        } else if (first.is("SELECT") || first.is("WITH") || first.is("VALUES") || first.isSymbol("(")) {
            return new Statement.Query(rest(), first.line(), first.column());
        } else {
            throw error(first, "unknown statement starting with " + first.describe() + ": expected one of " + STATEMENTS);
        }
        if (pos < end) {
            throw error(peek(), "unexpected " + peek().describe() + " after the end of the statement (a missing ';'?)");
        }
        return s;
    }

    private Statement create() {
        Token first = next();
        boolean temporary = false;
        if (peek().is("TEMPORARY")) {
            pos++;
            temporary = true;
        }
        Token what = next();
        if (what.is("TABLE")) {
            if (temporary) {
                throw error(what, "CREATE TEMPORARY TABLE is not supported yet: tables live in the session, write CREATE TABLE");
            }
            return createTable(first);
        }
        if (what.is("VIEW")) {
            boolean ifNotExists = ifNotExists();
            String name = identifier("the view's name");
            expectWord("AS");
            if (pos >= end) {
                throw error(peek(), "CREATE VIEW " + name + " AS needs a query");
            }
            return new Statement.CreateView(name, ifNotExists, temporary, rest(), first.line(), first.column());
        }
        if (what.is("FUNCTION") || what.is("CATALOG") || what.is("DATABASE")) {
            throw error(what, "CREATE " + what.text().toUpperCase(Locale.ROOT) + " is not supported yet");
        }
        throw error(what, "expected TABLE or VIEW after CREATE, found " + what.describe());
    }

    private boolean ifNotExists() {
        if (peek().is("IF")) {
            pos++;
            expectWord("NOT");
            expectWord("EXISTS");
            return true;
        }
        return false;
    }

    private Statement createTable(Token first) {
        boolean ifNotExists = ifNotExists();
        String name = identifier("the table's name");
        expectSymbol("(");
        List<Statement.Column> columns = new ArrayList<>();
        Statement.Watermark watermark = null;
        List<String> primaryKey = List.of();
        do {
            Token t = peek();
            if (t.is("WATERMARK")) {
                pos++;
                if (watermark != null) {
                    throw error(t, "a table has at most one WATERMARK");
                }
                expectWord("FOR");
                String column = identifier("the event-time column");
                expectWord("AS");
                watermark = new Statement.Watermark(column, expressionUntilCommaOrClose("the watermark expression"), t.line(), t.column());
            } else if (t.is("PRIMARY")) {
                pos++;
                expectWord("KEY");
                primaryKey = identifierList();
                Token not = peek();
                if (!not.is("NOT")) {
                    throw error(not, "PRIMARY KEY needs NOT ENFORCED: Millrace, like Flink, does not check primary keys");
                }
                pos++;
                expectWord("ENFORCED");
            } else if (t.is("CONSTRAINT")) {
                throw error(t, "named constraints are not supported yet: write PRIMARY KEY (...) NOT ENFORCED");
            } else {
                columns.add(column());
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        Map<String, String> options = new LinkedHashMap<>();
        if (peek().is("WITH")) {
            pos++;
            expectSymbol("(");
            if (!acceptSymbol(")")) {
                do {
                    Token keyToken = peek();
                    String key = string("an option key in quotes, like 'connector'");
                    expectSymbol("=");
                    String value = string("the value of option '" + key + "' in quotes");
                    if (options.put(key, value) != null) {
                        throw error(keyToken, "option '" + key + "' is given twice");
                    }
                } while (acceptSymbol(","));
                expectSymbol(")");
            }
        }
        return new Statement.CreateTable(name, ifNotExists, columns, watermark, primaryKey, options, first.line(), first.column());
    }

    private Statement.Column column() {
        Token start = peek();
        String name = identifier("a column name, WATERMARK or PRIMARY KEY");
        if (peek().is("AS")) {
            pos++;
            return new Statement.Column(name, null, expressionUntilCommaOrClose("the computed column's expression"), start.line(), start.column());
        }
        if (peek().is("METADATA")) {
            throw error(peek(), "METADATA columns are not supported yet");
        }
        TypeSpec type = type();
        if (peek().is("METADATA")) {
            throw error(peek(), "METADATA columns are not supported yet");
        }
        if (peek().is("PRIMARY")) {
            throw error(peek(), "write the primary key as a table constraint: PRIMARY KEY (" + name + ") NOT ENFORCED");
        }
        return new Statement.Column(name, type, null, start.line(), start.column());
    }

    private TypeSpec type() {
        Token t = next();
        if (t.kind() != Token.Kind.WORD) {
            throw error(t, "expected a type, found " + t.describe());
        }
        String name = t.text().toUpperCase(Locale.ROOT);
        TypeSpec.Base base;
        int precision = 0;
        int scale = 0;
        List<TypeSpec.Field> fields = List.of();
        switch (name) {
            case "BOOLEAN" -> base = TypeSpec.Base.BOOLEAN;
            case "INT", "INTEGER" -> base = TypeSpec.Base.INT;
            case "BIGINT" -> base = TypeSpec.Base.BIGINT;
            case "FLOAT", "REAL" -> base = TypeSpec.Base.FLOAT;
            case "DOUBLE" -> {
                base = TypeSpec.Base.DOUBLE;
                if (peek().is("PRECISION")) {
                    pos++;
                }
            }
            case "STRING" -> base = TypeSpec.Base.STRING;
            case "VARCHAR", "CHAR" -> {
                base = TypeSpec.Base.STRING;
                if (acceptSymbol("(")) {
                    number("a length");
                    expectSymbol(")");
                }
            }
            case "TIMESTAMP", "TIMESTAMP_LTZ" -> {
                base = name.equals("TIMESTAMP") ? TypeSpec.Base.TIMESTAMP : TypeSpec.Base.TIMESTAMP_LTZ;
                precision = 6;
                if (acceptSymbol("(")) {
                    Token p = peek();
                    precision = number("a precision from 0 to 9");
                    if (precision > 9) {
                        throw error(p, "timestamp precision must be 0 to 9, was " + precision);
                    }
                    expectSymbol(")");
                }
                if (base == TypeSpec.Base.TIMESTAMP && peek().is("WITH")) {
                    pos++;
                    expectWord("LOCAL");
                    expectWord("TIME");
                    expectWord("ZONE");
                    base = TypeSpec.Base.TIMESTAMP_LTZ;
                } else if (base == TypeSpec.Base.TIMESTAMP && peek().is("WITHOUT")) {
                    pos++;
                    expectWord("TIME");
                    expectWord("ZONE");
                }
            }
            case "DATE" -> base = TypeSpec.Base.DATE;
            case "TIME" -> {
                base = TypeSpec.Base.TIME;
                if (acceptSymbol("(")) {
                    Token p = peek();
                    precision = number("a precision from 0 to 3");
                    if (precision > 3) {
                        throw error(p, "TIME precision must be 0 to 3 (milliseconds), was " + precision);
                    }
                    expectSymbol(")");
                }
                if (peek().is("WITHOUT")) {
                    pos++;
                    expectWord("TIME");
                    expectWord("ZONE");
                }
            }
            case "DECIMAL", "DEC", "NUMERIC" -> {
                base = TypeSpec.Base.DECIMAL;
                precision = 10; // Flink's default: DECIMAL is DECIMAL(10, 0)
                if (acceptSymbol("(")) {
                    Token p = peek();
                    precision = number("a precision from 1 to 38");
                    if (precision < 1 || precision > 38) {
                        throw error(p, "DECIMAL precision must be 1 to 38, was " + precision);
                    }
                    if (acceptSymbol(",")) {
                        Token sc = peek();
                        scale = number("a scale from 0 to the precision");
                        if (scale > precision) {
                            throw error(sc, "DECIMAL scale must be 0 to the precision (" + precision + "), was " + scale);
                        }
                    }
                    expectSymbol(")");
                }
            }
            case "ROW" -> {
                base = TypeSpec.Base.ROW;
                fields = rowFields();
            }
            case "TINYINT", "SMALLINT", "BYTES", "BINARY", "VARBINARY", "ARRAY", "MAP",
                    "MULTISET", "INTERVAL" -> throw error(t, "type " + name + " is not supported yet; supported: " + SUPPORTED_TYPES);
            default -> throw error(t, "unknown type " + t.describe() + "; supported: " + SUPPORTED_TYPES);
        }
        boolean nullable = true;
        if (peek().is("NOT")) {
            pos++;
            expectWord("NULL");
            nullable = false;
        } else if (peek().is("NULL")) {
            pos++;
        }
        return new TypeSpec(base, precision, scale, fields, nullable);
    }

    private static final String SUPPORTED_TYPES = "BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), STRING, VARCHAR, DATE, TIME(p), "
            + "TIMESTAMP(p), TIMESTAMP_LTZ(p), ROW<name type, ...>";

    /** The fields of {@code ROW<name type, ...>} or {@code ROW(name type, ...)}, after the word ROW; a field may have a comment string. */
    private List<TypeSpec.Field> rowFields() {
        String close;
        if (acceptSymbol("<")) {
            close = ">";
        } else if (acceptSymbol("(")) {
            close = ")";
        } else {
            throw error(peek(), "expected '<' or '(' after ROW, found " + peek().describe());
        }
        List<TypeSpec.Field> fields = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        do {
            Token at = peek();
            String field = identifier("a field name of the ROW");
            if (!names.add(field)) {
                throw error(at, "the ROW has two fields named '" + field + "'");
            }
            fields.add(new TypeSpec.Field(field, type()));
            if (peek().kind() == Token.Kind.STRING) {
                pos++; // the field's comment
            }
        } while (acceptSymbol(","));
        expectSymbol(close);
        return fields;
    }

    private Statement set() {
        Token first = next();
        if (pos >= end) {
            return new Statement.Set(null, null, first.line(), first.column());
        }
        String key = string("the option key in quotes, like 'parallelism'");
        expectSymbol("=");
        String value = string("the value of '" + key + "' in quotes");
        return new Statement.Set(key, value, first.line(), first.column());
    }

    private Statement drop() {
        Token first = next();
        if (peek().is("TEMPORARY")) {
            pos++;
        }
        Token what = next();
        if (!what.is("TABLE") && !what.is("VIEW")) {
            throw error(what, "expected TABLE or VIEW after DROP, found " + what.describe());
        }
        boolean ifExists = false;
        if (peek().is("IF")) {
            pos++;
            expectWord("EXISTS");
            ifExists = true;
        }
        return new Statement.Drop(what.is("VIEW"), identifier("the name to drop"), ifExists, first.line(), first.column());
    }

    /** The tokens up to the next comma or closing parenthesis at depth 0 (not consumed), as text. */
    private SqlText expressionUntilCommaOrClose(String what) {
        int from = pos;
        int depth = 0;
        while (pos < end) {
            Token t = peek();
            if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
                break;
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
            pos++;
        }
        if (pos == from) {
            throw error(peek(), "expected " + what + ", found " + peek().describe());
        }
        return text(from, pos);
    }

    /** The rest of the statement, as text. */
    private SqlText rest() {
        int from = pos;
        pos = end;
        return text(from, end);
    }

    private SqlText text(int from, int to) {
        Token a = tokens.get(from);
        Token b = tokens.get(to - 1);
        return new SqlText(sql.substring(a.start(), b.end()), a.line(), a.column());
    }

    private List<String> identifierList() {
        expectSymbol("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier("a column name"));
        } while (acceptSymbol(","));
        expectSymbol(")");
        return names;
    }

    private String identifier(String what) {
        Token t = next();
        if (t.kind() != Token.Kind.WORD && t.kind() != Token.Kind.QUOTED) {
            throw error(t, "expected " + what + ", found " + t.describe());
        }
        return t.text();
    }

    private String string(String what) {
        Token t = next();
        if (t.kind() != Token.Kind.STRING) {
            throw error(t, "expected " + what + ", found " + t.describe());
        }
        return t.text();
    }

    private int number(String what) {
        Token t = next();
        if (t.kind() != Token.Kind.NUMBER) {
            throw error(t, "expected " + what + ", found " + t.describe());
        }
        try {
            return Integer.parseInt(t.text());
        } catch (NumberFormatException e) {
            throw error(t, "expected " + what + ", found " + t.describe());
        }
    }

    private void expectWord(String keyword) {
        Token t = next();
        if (!t.is(keyword)) {
            throw error(t, "expected " + keyword + ", found " + t.describe());
        }
    }

    private void expectSymbol(String symbol) {
        Token t = next();
        if (!t.isSymbol(symbol)) {
            throw error(t, "expected '" + symbol + "', found " + t.describe());
        }
    }

    private boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    private Token peek() {
        if (pos >= end) {
            Token last = tokens.get(end);
            return new Token(Token.Kind.END, "", last.start(), last.start(), last.line(), last.column());
        }
        return tokens.get(pos);
    }

    private Token next() {
        Token t = peek();
        if (pos < end) {
            pos++;
        }
        return t;
    }

    private SqlException error(Token at, String message) {
        return new SqlException(message, at.line(), at.column(), sql, null);
    }
}
