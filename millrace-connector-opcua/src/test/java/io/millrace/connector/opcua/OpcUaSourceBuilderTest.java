package io.millrace.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.ULong;
import org.junit.jupiter.api.Test;

/** The source's options, its split codec and the mapping of OPC UA values, without a server. */
class OpcUaSourceBuilderTest {
    private static OpcUaSource.Builder minimal() {
        return OpcUaSource.builder().endpoint("opc.tcp://plc:4840").nodes("ns=2;s=T");
    }

    @Test
    void builder_refusesMissingAndMalformedOptions_namingThem() {
        assertThatThrownBy(() -> OpcUaSource.builder().nodes("ns=2;s=T").build()).hasMessageContaining("option 'endpoint' is required");
        assertThatThrownBy(() -> OpcUaSource.builder().endpoint("http://plc")).hasMessageContaining("option 'endpoint' must be an opc.tcp://");
        assertThatThrownBy(() -> OpcUaSource.builder().endpoint("opc.tcp://plc").build()).hasMessageContaining("option 'nodes'")
                .hasMessageContaining("option 'browse'");
        assertThatThrownBy(() -> OpcUaSource.builder().nodes("Temperature")).hasMessageContaining("option 'nodes' has 'Temperature', which is not a node id");
        assertThatThrownBy(() -> OpcUaSource.builder().browse("ns=x")).hasMessageContaining("option 'browse' has 'ns=x'");
        assertThatThrownBy(() -> minimal().queueSize(0)).hasMessageContaining("option 'queueSize' must be at least 1, was 0");
        assertThatThrownBy(() -> minimal().publishingInterval(Duration.ZERO)).hasMessageContaining("option 'publishingInterval' must be positive");
        assertThatThrownBy(() -> minimal().samplingInterval(Duration.ofMillis(-1))).hasMessageContaining("option 'samplingInterval' must be zero or positive");
        assertThatThrownBy(() -> minimal().maxBufferedChanges(0)).hasMessageContaining("option 'maxBufferedChanges' must be at least 1");
        assertThatThrownBy(() -> minimal().username("", "x")).hasMessageContaining("option 'username' must not be empty");
    }

    @Test
    void basic256Sha256_needsACertificate_andAWayToTrustTheServer() {
        ClientCertificate cert = ClientCertificate.pem(Path.of("c.pem"), Path.of("k.pem"));
        assertThatThrownBy(() -> minimal().securityPolicy(OpcUaSecurityPolicy.BASIC256SHA256).build())
                .hasMessageContaining("security policy BASIC256SHA256 needs option 'clientCertificate'");
        assertThatThrownBy(() -> minimal().securityPolicy(OpcUaSecurityPolicy.BASIC256SHA256).clientCertificate(cert).build())
                .hasMessageContaining("needs option 'trustedServerCertificates' (or, insecurely, 'acceptAnyServerCertificateInsecurely')");
        assertThatThrownBy(() -> minimal().trustedServerCertificates(Path.of("t")).acceptAnyServerCertificateInsecurely().build())
                .hasMessageContaining("not both");
        OpcUaSource ok = minimal().securityPolicy(OpcUaSecurityPolicy.BASIC256SHA256).clientCertificate(cert)
                .trustedServerCertificates(Path.of("trust")).username("op", "pw").build();
        assertThat(ok.options().describe()).isEqualTo("opc.tcp://plc:4840 (security policy BASIC256SHA256/SIGN_AND_ENCRYPT, identity user 'op')");
    }

    @Test
    void defaults_andTheSingleSplit_whoseCheckpointHoldsNothingButItsEndpoint() throws Exception {
        OpcUaSource source = minimal().build();
        OpcUaOptions o = source.options();
        assertThat(o.samplingIntervalMillis()).isEqualTo(250.0);
        assertThat(o.publishingIntervalMillis()).isEqualTo(500.0);
        assertThat(o.queueSize()).isEqualTo(100);
        assertThat(o.discardOldest()).isTrue();
        assertThat(o.identity()).isEqualTo("anonymous");
        assertThat(source.maxParallelism()).isEqualTo(1);
        List<OpcUaSubscriptionSplit> splits = source.createSplits(4);
        assertThat(splits).containsExactly(new OpcUaSubscriptionSplit("opc.tcp://plc:4840"));
        var codec = source.splitCodec();
        assertThat(codec.decode(codec.version(), codec.encode(splits.get(0)))).isEqualTo(splits.get(0));
        assertThatThrownBy(() -> codec.decode(2, new byte[0])).hasMessageContaining("reads versions 1 to 1, not 2");
    }

    @Test
    void opcUaValues_becomeJavaValues_andWhatCannotBeConvertedIsNamed() {
        Instant t = Instant.parse("2026-05-01T10:00:00Z");
        UUID id = UUID.fromString("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
        assertThat(OpcUaValues.toJava((byte) -3)).isEqualTo(-3);
        assertThat(OpcUaValues.toJava((short) 300)).isEqualTo(300);
        assertThat(OpcUaValues.toJava(org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort(65535))).isEqualTo(65535);
        assertThat(OpcUaValues.toJava(UInteger.valueOf(4_000_000_000L))).isEqualTo(4_000_000_000L);
        assertThat(OpcUaValues.toJava(ULong.valueOf(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(OpcUaValues.toJava(1.5f)).isEqualTo(1.5f);
        assertThat(OpcUaValues.toJava(new DateTime(t))).isEqualTo(t);
        assertThat(OpcUaValues.toJava(id)).isEqualTo(id);
        assertThat(OpcUaValues.toJava(ByteString.of(new byte[] {1, 2}))).isEqualTo(new byte[] {1, 2});
        assertThat(OpcUaValues.toJava(LocalizedText.english("auto"))).isEqualTo("auto");
        assertThat(OpcUaValues.toJava(new NodeId(2, "x"))).isEqualTo("ns=2;s=x");
        assertThat(OpcUaValues.toJava(new double[] {1.0, 2.0})).isEqualTo(List.of(1.0, 2.0));
        assertThat(OpcUaValues.toJava(new Integer[] {1, 2})).isEqualTo(List.of(1, 2));
        assertThat(OpcUaValues.typeName(new Variant(new Integer[] {1}))).isEqualTo("Int32[]");
        assertThat(OpcUaValues.typeName(new Variant(UInteger.valueOf(1)))).isEqualTo("UInt32");
        assertThat(OpcUaValues.typeName(Variant.NULL_VALUE)).isEqualTo("Null");
        assertThatThrownBy(() -> OpcUaValues.toJava(ULong.MAX)).hasMessageContaining("does not fit a signed 64-bit long");
        ExtensionObject structure = ExtensionObject.encode(org.eclipse.milo.opcua.stack.core.encoding.DefaultEncodingContext.INSTANCE,
                new org.eclipse.milo.opcua.stack.core.types.structured.Range(0.0, 1.0));
        assertThatThrownBy(() -> OpcUaValues.toJava(structure)).hasMessageContaining("values of type ExtensionObject");
        assertThat(OpcUaValues.statusName(0)).isEqualTo("Good");
        assertThat(OpcUaValues.statusName(StatusCodes.Bad_SensorFailure)).isEqualTo("Bad_SensorFailure");
        assertThat(OpcUaValues.statusName(0x80000000L | 0x7FFF0000L)).startsWith("0x");
    }

    @Test
    void dataChange_qualityAndOverflowBits() {
        OpcUaDataChange good = change(0);
        assertThat(good.isGood()).isTrue();
        assertThat(good.overflow()).isFalse();
        OpcUaDataChange overflow = change(0x00000400L | 0x00000080L);
        assertThat(overflow.isGood()).isTrue();
        assertThat(overflow.overflow()).isTrue();
        assertThat(change(StatusCodes.Bad_CommunicationError).isBad()).isTrue();
        assertThat(change(StatusCodes.Uncertain_SensorNotAccurate).isUncertain()).isTrue();
        assertThat(good.doubleValue()).isEqualTo(2.0);
    }

    @Test
    void toRow_putsTheValueInTheColumnOfItsKind() {
        Instant source = Instant.parse("2026-05-02T08:00:00Z");
        Instant server = source.plusMillis(40);
        var row = new OpcUaDataChange("ns=2;s=P", "P", "Press", 2.5, "Double", source, server, 0, source.toEpochMilli()).toRow();
        assertThat(row.getString(row.type().index("node_id"))).isEqualTo("ns=2;s=P");
        assertThat(row.getDouble(row.type().index("value_double"))).isEqualTo(2.5);
        assertThat(row.isNullAt(row.type().index("value_long"))).isTrue();
        assertThat(row.isNullAt(row.type().index("value_string"))).isTrue();
        assertThat(row.getTimestamp(row.type().index("source_time"))).isEqualTo(source.toEpochMilli());
        assertThat(row.getTimestamp(row.type().index("server_time"))).isEqualTo(server.toEpochMilli());
        assertThat(row.getString(row.type().index("status"))).isEqualTo("Good");
        var count = new OpcUaDataChange("ns=2;s=C", "C", "C", 7, "Int32", null, server, StatusCodes.Bad_SensorFailure, server.toEpochMilli()).toRow();
        assertThat(count.getLong(count.type().index("value_long"))).isEqualTo(7L);
        assertThat(count.isNullAt(count.type().index("source_time"))).isTrue();
        assertThat(count.getLong(count.type().index("status_code"))).isEqualTo(StatusCodes.Bad_SensorFailure);
        assertThat(count.getString(count.type().index("status"))).isEqualTo("Bad_SensorFailure");
        var bytes = new OpcUaDataChange("ns=2;s=B", "B", "B", new byte[] {1, 2, 3}, "ByteString", null, null, 0, 0).toRow();
        assertThat(bytes.getString(bytes.type().index("value_string"))).isEqualTo("AQID");
        var flag = new OpcUaDataChange("ns=2;s=F", "F", "F", true, "Boolean", null, null, 0, 0).toRow();
        assertThat(flag.getBoolean(flag.type().index("value_boolean"))).isTrue();
    }

    private static OpcUaDataChange change(long status) {
        return new OpcUaDataChange("ns=2;s=T", "T", "T", 2, "Int32", null, null, status, 0);
    }
}
