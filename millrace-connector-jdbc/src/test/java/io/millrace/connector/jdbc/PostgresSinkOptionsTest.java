package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Options are checked when the sink is built, naming the option; the SQL quotes every identifier. */
class PostgresSinkOptionsTest {
    static final RowType TYPE = RowType.builder().field("machine", FieldType.STRING).field("Speed", FieldType.INT).build();

    private static PostgresSink.Builder<Row> builder() {
        return PostgresSink.builder(Columns.of(TYPE)).url("jdbc:postgresql://127.0.0.1:5432/plant").table("machines");
    }

    @Test
    void missingOrWrongOptions_failNamingTheOptionAndWhatItTakes() {
        assertThatThrownBy(() -> PostgresSink.builder(Columns.of(TYPE)).url("jdbc:mysql://db/plant"))
                .hasMessageContaining("option 'url' must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> PostgresSink.builder(Columns.of(TYPE)).table("machines").upsert("machine").build())
                .hasMessageContaining("option 'url' is required");
        assertThatThrownBy(() -> builder().build()).hasMessageContaining("choose a mode, 'upsert' (key columns) or 'exactlyOnceAppend'");
        assertThatThrownBy(() -> builder().upsert("id")).hasMessageContaining("option 'upsert': no column 'id' among the sink's columns [machine, Speed]");
        assertThatThrownBy(() -> builder().upsert()).hasMessageContaining("option 'upsert' needs the key columns");
        assertThatThrownBy(() -> builder().exactlyOnceAppend("has space")).hasMessageContaining("option 'transactionPrefix' must be");
        assertThatThrownBy(() -> builder().batchSize(0)).hasMessageContaining("option 'batchSize' must be at least 1, was 0");
        assertThatThrownBy(() -> builder().batchInterval(Duration.ofSeconds(-1))).hasMessageContaining("option 'batchInterval'");
        assertThatThrownBy(() -> builder().retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1))).hasMessageContaining("option 'retryBackoff'");
        assertThatThrownBy(() -> builder().table("two words")).hasMessageContaining("option 'table'");
        assertThatThrownBy(() -> BadRowPolicy.deadLetter("bad-name")).hasMessageContaining("option 'deadLetterTable'");
        assertThatThrownBy(() -> builder().progressTable("x y")).hasMessageContaining("option 'progressTable'");
    }

    @Test
    void statements_quoteEveryIdentifier_andUpdateTheColumnsOutsideTheKey() {
        assertThat(TableStatements.upsert("plant.machines", List.of("machine", "Speed"), List.of("machine")))
                .isEqualTo("INSERT INTO \"plant\".\"machines\" (\"machine\", \"Speed\") VALUES (?, ?)"
                        + " ON CONFLICT (\"machine\") DO UPDATE SET \"Speed\" = EXCLUDED.\"Speed\"");
        assertThat(TableStatements.upsert("t", List.of("a", "b"), List.of("a", "b")))
                .isEqualTo("INSERT INTO \"t\" (\"a\", \"b\") VALUES (?, ?) ON CONFLICT (\"a\", \"b\") DO NOTHING");
        assertThat(TableStatements.delete("t", List.of("a", "b"))).isEqualTo("DELETE FROM \"t\" WHERE \"a\" = ? AND \"b\" = ?");
        assertThat(TableStatements.quote("we\"ird")).isEqualTo("\"we\"\"ird\"");
    }

    @Test
    void transactionIds_belongToOneSubtask_andCarryTheirCheckpoint() {
        TransactionIds ids = new TransactionIds("plant_7");
        assertThat(ids.of(1, 42)).isEqualTo("plant_7-1-42");
        assertThat(ids.numberOf(1, "plant_7-1-42")).isEqualTo(42);
        assertThat(ids.numberOf(1, "plant_7-11-42")).isEqualTo(-1);
        assertThat(ids.numberOf(0, "plant_7-1-42")).isEqualTo(-1);
        assertThat(ids.numberOf(1, "plant_7-1-x")).isEqualTo(-1);
        assertThat(ids.likePatternOf(1)).isEqualTo("plant\\_7-1-%");
        assertThat(ids.parse("plant_7-3-42")).containsExactly(3, 42);
        assertThat(ids.parse("plant_7-3-x")).isNull();
        assertThat(ids.parse("other-3-42")).isNull();
        assertThat(new TransactionIds("a-b").parse("a-b-0-7")).containsExactly(0, 7);
    }

    @Test
    void preparedTransactions_roundTripThroughTheirCodec() throws Exception {
        PreparedTransaction.Codec codec = new PreparedTransaction.Codec();
        PreparedTransaction t = new PreparedTransaction("plant7-readings-1-9");
        assertThat(codec.decode(1, codec.encode(t))).isEqualTo(t);
        assertThatThrownBy(() -> codec.decode(2, codec.encode(t))).hasMessageContaining("reads versions 1 to 1");
    }
}
