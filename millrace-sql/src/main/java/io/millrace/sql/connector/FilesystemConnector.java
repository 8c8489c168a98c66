package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.BadLineException;
import io.millrace.connector.file.FileSource;
import io.millrace.connector.file.LineEncoder;
import io.millrace.connector.file.LineFormat;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.format.FormatException;
import io.millrace.format.JsonRowFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * {@code 'connector' = 'filesystem'}: JSON lines, one object per row ({@link JsonRowFormat}). Reading takes a file or
 * a directory ({@code path}) and is bounded; a line that does not decode fails the job naming the file and line,
 * unless {@code json.ignore-parse-errors} is {@code true}: then it is skipped and counted in the source's
 * {@code badRecords} metric. Writing goes to the directory {@code path} exactly once: part files appear when the
 * checkpoint that covers them completes, or when the job ends.
 */
final class FilesystemConnector implements TableConnector {
    @Override
    public String name() {
        return "filesystem";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        String path = options.required("path", "a file or directory");
        options.choice("format", null, "json");
        if (options.get("format") == null) {
            options.required("format", "json (JSON lines; the only format so far)");
        }
        boolean ignoreErrors = options.getBoolean("json.ignore-parse-errors", false);
        JsonRowFormat format = JsonRowFormat.of(type);
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                FileSource<Row> source = FileSource.of(new JsonRowLines(format), Path.of(path));
                return pipeline.fromSource(source, watermarks, ignoreErrors ? BadRecordPolicy.SKIP : BadRecordPolicy.FAIL, name);
            }

            @Override
            public Sink<Row> sink() {
                return TransactionalFileSink.of(Path.of(path), new JsonRowEncoder(format));
            }

            @Override
            public String describe() {
                return "filesystem, path=" + path + ", format=json" + (ignoreErrors ? ", json.ignore-parse-errors=true" : "");
            }
        };
    }

    /** Lines of JSON objects decoded into rows. */
    record JsonRowLines(JsonRowFormat format) implements LineFormat<Row> {
        @Override
        public LineDecoder<Row> open(String file, String header) {
            return text -> {
                try {
                    return format.decode(text.getBytes(StandardCharsets.UTF_8));
                } catch (FormatException e) {
                    throw new BadLineException(e.getMessage());
                }
            };
        }
    }

    /** Rows written as JSON objects, one per line. */
    record JsonRowEncoder(JsonRowFormat format) implements LineEncoder<Row> {
        @Override
        public String extension() {
            return "jsonl";
        }

        @Override
        public void encode(Row value, StringBuilder line) {
            line.append(new String(format.encode(value), StandardCharsets.UTF_8));
        }
    }
}
