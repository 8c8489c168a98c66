package io.millrace.format.avro;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import io.millrace.format.FormatException;
import io.millrace.format.RowFormat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * A row as one Avro record in Avro's binary encoding, the bytes {@code GenericDatumWriter} writes for the schema (no
 * container file, no schema in the message), optionally behind the Confluent wire-format header. Immutable and
 * thread-safe.
 *
 * <p>The schema is an Avro {@code record}, given as JSON ({@link #ofSchema}), in a file ({@link #ofSchemaFile}), or
 * derived from a row type ({@link #of}). Its fields become the row's fields, in order and by name:
 *
 * <table>
 *   <caption>Avro types and row types</caption>
 *   <tr><th>Avro</th><th>row</th></tr>
 *   <tr><td>{@code boolean}, {@code int}, {@code long}, {@code float}, {@code double}, {@code string}</td>
 *       <td>{@code BOOLEAN}, {@code INT}, {@code BIGINT}, {@code FLOAT}, {@code DOUBLE}, {@code STRING}</td></tr>
 *   <tr><td>{@code long} with logical type {@code timestamp-millis}</td><td>{@code TIMESTAMP}</td></tr>
 *   <tr><td>{@code enum}</td><td>{@code STRING} (the symbol; writing another text is an error)</td></tr>
 *   <tr><td>{@code ["null", T]} or {@code [T, "null"]}</td><td>T, nullable</td></tr>
 * </table>
 *
 * Other Avro types (bytes, fixed, arrays, maps, nested records, other unions) have no row type: the format refuses
 * the schema, naming the field. Other logical types are read as their underlying type.
 *
 * <p><b>Reading</b> fails with a {@link FormatException} naming the field, its Avro type, the byte offset and the
 * problem: bytes that end early, a union branch or enum symbol that does not exist, a negative length, bytes left
 * over after the last field; with the Confluent header, a missing magic byte or another schema id.
 */
public final class AvroRowFormat implements RowFormat {
    private static final long serialVersionUID = 1L;
    private static final byte MAGIC = 0;

    private final String schemaJson;
    private final RowType type;
    private final AvroField[] fields;
    /** The schema id of the Confluent header, or -1 for none. */
    private final long schemaId;
    private transient Schema schema;

    private AvroRowFormat(Schema schema, long schemaId) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("Avro format: the schema must be a record, not " + schema.getType().getName());
        }
        this.schema = schema;
        this.schemaJson = schema.toString();
        this.schemaId = schemaId;
        List<AvroField> mapped = new ArrayList<>();
        RowType.Builder b = RowType.builder();
        for (Schema.Field f : schema.getFields()) {
            AvroField af = AvroField.of(f);
            mapped.add(af);
            if (af.nullable()) {
                b.nullableField(f.name(), af.type());
            } else {
                b.field(f.name(), af.type());
            }
        }
        if (mapped.isEmpty()) {
            throw new IllegalArgumentException("Avro format: record " + schema.getFullName() + " has no fields");
        }
        this.fields = mapped.toArray(new AvroField[0]);
        this.type = b.build();
    }

    /** The format of an Avro record schema in JSON; fails naming what is wrong with it, or the field that has no row type. */
    public static AvroRowFormat ofSchema(String schemaJson) {
        Objects.requireNonNull(schemaJson, "schema");
        try {
            return new AvroRowFormat(new Schema.Parser().parse(schemaJson), -1);
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException("Avro format: not a valid Avro schema: " + e.getMessage(), e);
        }
    }

    /** The format of the Avro record schema in {@code file} (JSON, an {@code .avsc} file). */
    public static AvroRowFormat ofSchemaFile(Path file) {
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("Avro format: cannot read the schema file " + file + ": " + e, e);
        }
        try {
            return ofSchema(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (schema file " + file + ")", e);
        }
    }

    /**
     * The format of a schema derived from {@code type}: a record {@code name} (a full Avro name such as
     * {@code plant.Reading}) with a field per row field, nullable fields as {@code ["null", T]} with default null,
     * timestamps as {@code timestamp-millis}.
     */
    public static AvroRowFormat of(RowType type, String name) {
        return new AvroRowFormat(AvroField.schemaOf(type, name), -1);
    }

    /**
     * With the Confluent wire-format header: a zero magic byte and the 4-byte big-endian {@code schemaId} of this
     * schema in the registry, before the Avro bytes. Reading refuses another magic byte or schema id (no registry is
     * asked). The id is the one the registry gave this schema.
     */
    public AvroRowFormat confluentWireFormat(int schemaId) {
        if (schemaId < 0) {
            throw new IllegalArgumentException("Avro format: option 'schemaId' must be zero or positive, was " + schemaId);
        }
        return new AvroRowFormat(schema(), schemaId);
    }

    /** The Avro schema. */
    public Schema schema() {
        Schema s = schema;
        if (s == null) {
            s = new Schema.Parser().parse(schemaJson);
            schema = s;
        }
        return s;
    }

    @Override
    public RowType type() {
        return type;
    }

    @Override
    public byte[] encode(Row row) {
        if (!row.type().equals(type)) {
            throw new FormatException("Avro format of " + type + " cannot write a row of " + row.type());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 8 * fields.length);
        if (schemaId >= 0) {
            out.write(MAGIC);
            writeInt((int) schemaId, out);
        }
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            for (int i = 0; i < fields.length; i++) {
                fields[i].write(row, i, encoder);
            }
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Override
    public Row decode(byte[] bytes) {
        if (bytes == null) {
            throw new FormatException("no bytes (null) where an Avro record " + schema().getFullName() + " was expected");
        }
        Input in = new Input(bytes);
        if (schemaId >= 0) {
            readHeader(in);
        }
        Decoder decoder = DecoderFactory.get().directBinaryDecoder(in, null);
        RowBuilder row = Row.builder(type);
        for (int i = 0; i < fields.length; i++) {
            int at = in.position();
            try {
                fields[i].read(decoder, row, i, at);
            } catch (EOFException e) {
                throw new FormatException(fields[i].where(at) + ": the bytes end early (" + bytes.length + " bytes)");
            } catch (FormatException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                throw new FormatException(fields[i].where(at) + ": " + e.getMessage());
            }
        }
        if (in.available() > 0) {
            throw new FormatException(in.available() + " bytes left over at byte " + in.position() + " after the last field of Avro record "
                    + schema().getFullName() + " (written with another schema?)");
        }
        return row.build();
    }

    private void readHeader(Input in) {
        int magic = in.read();
        if (magic != MAGIC) {
            throw new FormatException("Confluent wire format: expected the magic byte 0, found " + (magic < 0 ? "no bytes" : String.valueOf(magic)));
        }
        if (in.available() < 4) {
            throw new FormatException("Confluent wire format: the 4-byte schema id is cut short (" + in.available() + " bytes)");
        }
        int id = (in.read() << 24) | (in.read() << 16) | (in.read() << 8) | in.read();
        if (id != schemaId) {
            throw new FormatException("Confluent wire format: the message has schema id " + id + ", this format reads schema id " + schemaId);
        }
    }

    private static void writeInt(int v, ByteArrayOutputStream out) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    /** Bytes with their read position, for the offsets in error messages. */
    private static final class Input extends ByteArrayInputStream {
        Input(byte[] bytes) {
            super(bytes);
        }

        int position() {
            return pos;
        }
    }

    @Override
    public String toString() {
        return "Avro " + schema().getFullName() + (schemaId >= 0 ? " (Confluent wire format, schema id " + schemaId + ")" : "");
    }
}
