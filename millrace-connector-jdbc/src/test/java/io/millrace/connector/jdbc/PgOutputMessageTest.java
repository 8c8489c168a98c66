package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** pgoutput's messages decoded from bytes written as the protocol documents them; timestamps and the split's codec. */
class PgOutputMessageTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    private void string(String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    private void text(String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write('t');
        out.writeInt(b.length);
        out.write(b);
    }

    /** The message, with bytes before it in the buffer, as the driver hands it over. */
    private PgOutputMessage decode() {
        byte[] message = bytes.toByteArray();
        byte[] framed = new byte[message.length + 7];
        System.arraycopy(message, 0, framed, 7, message.length);
        return PgOutputMessage.decode(ByteBuffer.wrap(framed, 7, message.length));
    }

    @Test
    void beginAndCommit_carryLsnsAndCommitTimesInMilliseconds() throws IOException {
        long micros = 1_000_000L * 86_400 * 365 + 123_456; // about a year after 2000-01-01
        out.write('B');
        out.writeLong(0x16B3748L);
        out.writeLong(micros);
        out.writeInt(771);
        PgOutputMessage.Begin b = (PgOutputMessage.Begin) decode();
        assertThat(b.commitLsn()).isEqualTo(0x16B3748L);
        assertThat(b.xid()).isEqualTo(771);
        assertThat(b.commitMillis()).isEqualTo(Instant.parse("2000-01-01T00:00:00Z").toEpochMilli() + micros / 1000);

        bytes.reset();
        out.write('C');
        out.write(0);
        out.writeLong(0x16B3748L);
        out.writeLong(0x16B3780L);
        out.writeLong(micros);
        PgOutputMessage.Commit c = (PgOutputMessage.Commit) decode();
        assertThat(c.commitLsn()).isEqualTo(0x16B3748L);
        assertThat(c.endLsn()).isEqualTo(0x16B3780L);
    }

    @Test
    void relationInsertUpdateDeleteAndTruncate_decodeTheirColumns() throws IOException {
        out.write('R');
        out.writeInt(16384);
        string("public");
        string("machines");
        out.write('f');
        out.writeShort(2);
        out.write(1);
        string("id");
        out.writeInt(25);
        out.writeInt(-1);
        out.write(0);
        string("rpm");
        out.writeInt(23);
        out.writeInt(-1);
        PgOutputMessage.Relation r = (PgOutputMessage.Relation) decode();
        assertThat(r.oid()).isEqualTo(16384);
        assertThat(r.schema() + "." + r.name()).isEqualTo("public.machines");
        assertThat(r.replicaIdentity()).isEqualTo('f');
        assertThat(r.columns()).containsExactly("id", "rpm");
        assertThat(r.typeOids()).containsExactly(25, 23);

        bytes.reset();
        out.write('I');
        out.writeInt(16384);
        out.write('N');
        out.writeShort(2);
        text("m-ü");
        out.write('n');
        PgOutputMessage.Insert i = (PgOutputMessage.Insert) decode();
        assertThat(i.row().values()).containsExactly("m-ü", null);

        bytes.reset();
        out.write('U');
        out.writeInt(16384);
        out.write('O');
        out.writeShort(2);
        text("m1");
        text("1000");
        out.write('N');
        out.writeShort(2);
        text("m1");
        out.write('u');
        PgOutputMessage.Update u = (PgOutputMessage.Update) decode();
        assertThat(u.oldKind()).isEqualTo('O');
        assertThat(u.old().values()).containsExactly("m1", "1000");
        assertThat(u.row().unchanged()).containsExactly(false, true);

        bytes.reset();
        out.write('U');
        out.writeInt(16384);
        out.write('N');
        out.writeShort(1);
        text("m2");
        PgOutputMessage.Update plain = (PgOutputMessage.Update) decode();
        assertThat(plain.old()).isNull();
        assertThat(plain.row().values()).containsExactly("m2");

        bytes.reset();
        out.write('D');
        out.writeInt(16384);
        out.write('K');
        out.writeShort(2);
        text("m3");
        out.write('n');
        PgOutputMessage.Delete d = (PgOutputMessage.Delete) decode();
        assertThat(d.oldKind()).isEqualTo('K');
        assertThat(d.old().values()).containsExactly("m3", null);

        bytes.reset();
        out.write('T');
        out.writeInt(2);
        out.write(0);
        out.writeInt(16384);
        out.writeInt(16390);
        assertThat(((PgOutputMessage.Truncate) decode()).relations()).containsExactly(16384, 16390);

        bytes.reset();
        out.write('Y');
        out.writeInt(1);
        assertThat(decode()).isEqualTo(new PgOutputMessage.Other('Y'));
    }

    @Test
    void bytesThatEndEarlyOrHaveAnUnknownValueKind_failNamingTheMessage() throws IOException {
        out.write('I');
        out.writeInt(16384);
        out.write('N');
        out.writeShort(1);
        out.write('b');
        assertThatThrownBy(this::decode).hasMessageContaining("pgoutput message 'I'").hasMessageContaining("value kind 'b'");
        bytes.reset();
        out.write('B');
        out.writeInt(1);
        assertThatThrownBy(this::decode).hasMessageContaining("pgoutput message 'B'");
    }

    @Test
    void timestamptzText_readsWithEveryOffsetForm() {
        assertThat(CdcTable.instantMillis("2026-12-04 21:11:11.123456+00")).isEqualTo(Instant.parse("2026-12-04T21:11:11.123Z").toEpochMilli());
        assertThat(CdcTable.instantMillis("2026-12-04 21:11:11+05:30")).isEqualTo(Instant.parse("2026-12-04T15:41:11Z").toEpochMilli());
        assertThat(CdcTable.instantMillis("1969-12-31 23:59:59.9995-01")).isEqualTo(Instant.parse("1970-01-01T00:59:59.999Z").toEpochMilli());
        assertThatThrownBy(() -> CdcTable.instantMillis("infinity")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void cdcSplit_roundTripsThroughItsCodec() throws IOException {
        CdcSplit split = new CdcSplit("items_cdc", true, 0x16B3780L, 0x16B4000L, 3);
        CdcSplit.Codec codec = new CdcSplit.Codec();
        assertThat(codec.decode(codec.version(), codec.encode(split))).isEqualTo(split);
        assertThat(split.splitId()).isEqualTo("pg-slot-items_cdc");
    }
}
