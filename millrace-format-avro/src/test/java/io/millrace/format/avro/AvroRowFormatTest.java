package io.millrace.format.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.format.FormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AvroRowFormatTest {
    @Test
    void nestedRowsAndDecimals_areRefusedUpFront_namingTheField() {
        RowType inner = RowType.builder().field("x", FieldType.INT).build();
        assertThatThrownBy(() -> AvroRowFormat.of(RowType.builder().field("pos", inner).build(), "io.millrace.Test"))
                .hasMessageContaining("Avro format: field 'pos' is ROW<x INT NOT NULL>, which has no Avro form yet");
        assertThatThrownBy(() -> AvroRowFormat.of(RowType.builder().decimalField("price", 10, 2, false).build(), "io.millrace.Test"))
                .hasMessageContaining("Avro format: field 'price' is DECIMAL(10, 2), which has no Avro form yet");
    }

    static final String SCHEMA = """
            {"type": "record", "name": "Reading", "namespace": "plant",
             "fields": [
               {"name": "ok", "type": "boolean"},
               {"name": "line", "type": "int"},
               {"name": "seq", "type": "long"},
               {"name": "ratio", "type": "float"},
               {"name": "celsius", "type": "double"},
               {"name": "machine", "type": "string"},
               {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
               {"name": "state", "type": {"type": "enum", "name": "State", "symbols": ["IDLE", "RUNNING", "FAULT"]}},
               {"name": "note", "type": ["null", "string"], "default": null},
               {"name": "load", "type": ["double", "null"]}
             ]}""";
    static final AvroRowFormat FORMAT = AvroRowFormat.ofSchema(SCHEMA);
    static final Schema AVRO = new Schema.Parser().parse(SCHEMA);
    static final String[] STATES = {"IDLE", "RUNNING", "FAULT"};

    @Test
    void rowType_followsTheSchema() {
        assertThat(FORMAT.type()).isEqualTo(RowType.builder().field("ok", FieldType.BOOLEAN).field("line", FieldType.INT)
                .field("seq", FieldType.BIGINT).field("ratio", FieldType.FLOAT).field("celsius", FieldType.DOUBLE)
                .field("machine", FieldType.STRING).field("at", FieldType.TIMESTAMP).field("state", FieldType.STRING)
                .nullableField("note", FieldType.STRING).nullableField("load", FieldType.DOUBLE).build());
    }

    @Test
    void recordsWrittenByAvrosGenericWriter_decodeToTheSameValues() throws Exception {
        Random random = new Random(3);
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(AVRO);
        for (int k = 0; k < 2_000; k++) {
            GenericRecord r = new GenericData.Record(AVRO);
            r.put("ok", random.nextBoolean());
            r.put("line", random.nextInt());
            r.put("seq", random.nextLong());
            r.put("ratio", random.nextFloat());
            r.put("celsius", random.nextGaussian() * 100);
            r.put("machine", text(random));
            r.put("at", random.nextLong() >>> 22);
            r.put("state", new GenericData.EnumSymbol(AVRO.getField("state").schema(), STATES[random.nextInt(3)]));
            r.put("note", random.nextBoolean() ? null : text(random));
            r.put("load", random.nextBoolean() ? null : random.nextDouble());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            writer.write(r, encoder);
            encoder.flush();

            Row row = FORMAT.decode(out.toByteArray());
            for (Schema.Field f : AVRO.getFields()) {
                Object expected = r.get(f.name());
                assertThat(row.getField(f.name())).as(f.name()).isEqualTo(expected == null ? null : f.name().equals("state")
                        || f.name().equals("machine") || f.name().equals("note") ? expected.toString() : expected);
            }
        }
    }

    @Test
    void rowsWritten_decodeWithAvrosGenericReader() throws Exception {
        Random random = new Random(5);
        GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(AVRO);
        for (int k = 0; k < 2_000; k++) {
            Row row = Row.of(FORMAT.type(), random.nextBoolean(), random.nextInt(), random.nextLong(), random.nextFloat(), random.nextDouble(),
                    text(random), random.nextLong() >>> 22, STATES[random.nextInt(3)], random.nextBoolean() ? null : text(random),
                    random.nextBoolean() ? null : random.nextGaussian());
            byte[] bytes = FORMAT.encode(row);
            GenericRecord r = reader.read(null, DecoderFactory.get().binaryDecoder(bytes, null));
            for (int i = 0; i < row.size(); i++) {
                Object value = r.get(i);
                assertThat(value instanceof CharSequence || value instanceof GenericData.EnumSymbol ? value.toString() : value)
                        .as(FORMAT.type().name(i)).isEqualTo(row.getField(i));
            }
            assertThat(FORMAT.decode(bytes)).isEqualTo(row);
        }
    }

    @Test
    void schemaDerivedFromARowType_isReadableByAvro_andRoundTrips() throws Exception {
        RowType type = RowType.builder().field("machine", FieldType.STRING).field("at", FieldType.TIMESTAMP)
                .nullableField("celsius", FieldType.DOUBLE).build();
        AvroRowFormat format = AvroRowFormat.of(type, "plant.Reading");
        assertThat(format.type()).isEqualTo(type);
        assertThat(format.schema().getField("at").schema().getLogicalType().getName()).isEqualTo("timestamp-millis");
        assertThat(format.schema().getField("celsius").schema().getTypes().get(0).getType()).isEqualTo(Schema.Type.NULL);
        Row row = Row.of(type, "m03", 1_733_222_400_000L, null);
        GenericRecord r = new GenericDatumReader<GenericRecord>(format.schema())
                .read(null, DecoderFactory.get().binaryDecoder(format.encode(row), null));
        assertThat(r.get("machine").toString()).isEqualTo("m03");
        assertThat(r.get("at")).isEqualTo(1_733_222_400_000L);
        assertThat(r.get("celsius")).isNull();
        assertThat(format.decode(format.encode(row))).isEqualTo(row);
    }

    @Test
    void schemaFromAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("reading.avsc");
        Files.writeString(file, SCHEMA);
        assertThat(AvroRowFormat.ofSchemaFile(file).type()).isEqualTo(FORMAT.type());
        assertThatThrownBy(() -> AvroRowFormat.ofSchemaFile(dir.resolve("missing.avsc")))
                .hasMessageContaining("cannot read the schema file").hasMessageContaining("missing.avsc");
    }

    @Test
    void badBytes_nameTheFieldTheOffsetAndTheProblem() {
        Row row = Row.of(FORMAT.type(), true, 1, 2L, 1.5f, 2.5, "m03", 1000L, "RUNNING", "x", 0.5);
        byte[] good = FORMAT.encode(row);
        // ok(1) line(1) seq(1) ratio(4) celsius(8) machine(1+3) at(2) state(1) note(1+1+1) load(1+8)
        assertThatThrownBy(() -> FORMAT.decode(Arrays.copyOf(good, 10))).isInstanceOf(FormatException.class)
                .hasMessage("field 'celsius' (double) at byte 7: the bytes end early (10 bytes)");
        byte[] badUnion = good.clone();
        badUnion[22] = 4; // zig-zag 2: branch 2 of the note union
        assertThatThrownBy(() -> FORMAT.decode(badUnion)).hasMessage("field 'note' (nullable string) at byte 22: union branch 2 does not exist (the union has 2)");
        byte[] badEnum = good.clone();
        badEnum[21] = 6; // symbol 3 of 3
        assertThatThrownBy(() -> FORMAT.decode(badEnum)).hasMessageStartingWith("field 'state' (enum) at byte 21:");
        byte[] negativeLength = good.clone();
        negativeLength[15] = 1; // zig-zag -1 as the length of machine
        assertThatThrownBy(() -> FORMAT.decode(negativeLength)).hasMessageStartingWith("field 'machine' (string) at byte 15:")
                .hasMessageContaining("negative");
        byte[] longer = Arrays.copyOf(good, good.length + 2);
        assertThatThrownBy(() -> FORMAT.decode(longer)).hasMessageStartingWith("2 bytes left over at byte " + good.length);
        assertThatThrownBy(() -> FORMAT.decode(null)).hasMessageContaining("no bytes (null) where an Avro record plant.Reading was expected");
        assertThatThrownBy(() -> FORMAT.encode(Row.of(FORMAT.type(), true, 1, 2L, 1.5f, 2.5, "m03", 1000L, "BROKEN", null, null)))
                .hasMessage("field 'state' (enum): 'BROKEN' is not one of the symbols [IDLE, RUNNING, FAULT]");
    }

    @Test
    void confluentWireFormat_writesAndChecksTheHeader() {
        AvroRowFormat wire = FORMAT.confluentWireFormat(42);
        Row row = Row.of(FORMAT.type(), true, 1, 2L, 1.5f, 2.5, "m03", 1000L, "IDLE", null, null);
        byte[] bytes = wire.encode(row);
        assertThat(Arrays.copyOf(bytes, 5)).containsExactly(0, 0, 0, 0, 42);
        assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).isEqualTo(FORMAT.encode(row));
        assertThat(wire.decode(bytes)).isEqualTo(row);
        assertThatThrownBy(() -> FORMAT.confluentWireFormat(7).decode(bytes))
                .hasMessage("Confluent wire format: the message has schema id 42, this format reads schema id 7");
        assertThatThrownBy(() -> wire.decode(FORMAT.encode(row))).hasMessageStartingWith("Confluent wire format: expected the magic byte 0, found 1");
        assertThatThrownBy(() -> wire.decode(new byte[] {0, 0})).hasMessageContaining("schema id is cut short");
    }

    @Test
    void schemasWithoutARowType_areRefusedNamingTheField() {
        assertThatThrownBy(() -> AvroRowFormat.ofSchema("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}"))
                .hasMessageContaining("field 'tags' is of Avro type").hasMessageContaining("has no row type");
        assertThatThrownBy(() -> AvroRowFormat.ofSchema("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"v\",\"type\":[\"int\",\"string\"]}]}"))
                .hasMessageContaining("field 'v' is the union").hasMessageContaining("only a union of null and one other type");
        assertThatThrownBy(() -> AvroRowFormat.ofSchema("\"string\"")).hasMessageContaining("the schema must be a record, not string");
        assertThatThrownBy(() -> AvroRowFormat.ofSchema("{\"type\":\"record\"")).hasMessageContaining("not a valid Avro schema");
    }

    @Test
    void theFormatTravelsWithJavaSerialization() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(FORMAT.confluentWireFormat(3));
        }
        AvroRowFormat copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (AvroRowFormat) in.readObject();
        }
        Row row = Row.of(FORMAT.type(), false, 0, 0L, 0f, 0d, "", 0L, "FAULT", "n", 1.0);
        assertThat(copy.decode(FORMAT.confluentWireFormat(3).encode(row))).isEqualTo(row);
        assertThat(copy.schema()).isEqualTo(AVRO);
    }

    private static String text(Random random) {
        String alphabet = "abc xyz,\"é€\n";
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(10); i > 0; i--) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }
}
