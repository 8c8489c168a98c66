package io.millrace.format.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Avro examples of docs/formats.md; each runs here. */
class AvroFormatExamplesTest {
    @TempDir
    Path dir;

    @Test
    void avro() throws Exception {
        Path schemaFile = dir.resolve("reading.avsc");
        Files.writeString(schemaFile, AvroRowFormatTest.SCHEMA);
        // tag::avro[]
        AvroRowFormat inline = AvroRowFormat.ofSchema("""
                {"type": "record", "name": "Reading", "namespace": "plant", "fields": [
                  {"name": "machine", "type": "string"},
                  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                  {"name": "celsius", "type": ["null", "double"], "default": null}]}""");
        AvroRowFormat fromFile = AvroRowFormat.ofSchemaFile(schemaFile);        // an .avsc file
        AvroRowFormat derived = AvroRowFormat.of(inline.type(), "plant.Reading");  // the schema from a row type
        AvroRowFormat registered = inline.confluentWireFormat(17);              // magic byte 0 and schema id 17 first

        Row row = Row.of(inline.type(), "m03", 1_796_292_930_000L, 71.5);       // ROW<machine STRING NOT NULL, ...>
        byte[] bytes = inline.encode(row);                                       // what Avro's GenericDatumWriter writes
        // end::avro[]
        assertThat(inline.type()).isEqualTo(RowType.builder().field("machine", FieldType.STRING).field("at", FieldType.TIMESTAMP)
                .nullableField("celsius", FieldType.DOUBLE).build());
        assertThat(fromFile.type().names()).contains("machine", "celsius", "note");
        assertThat(derived.decode(bytes)).isEqualTo(row);
        assertThat(registered.decode(registered.encode(row))).isEqualTo(row);
        // tag::avro-error[]
        assertThatThrownBy(() -> inline.decode(java.util.Arrays.copyOf(bytes, 6)))
                .hasMessage("field 'at' (timestamp-millis) at byte 4: the bytes end early (6 bytes)");
        // end::avro-error[]
    }
}
