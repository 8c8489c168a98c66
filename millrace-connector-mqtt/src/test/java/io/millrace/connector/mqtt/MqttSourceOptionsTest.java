package io.millrace.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.format.BytesDecoder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The source's options, its sessions and how they are stored; no broker needed. */
class MqttSourceOptionsTest {
    private static MqttSource.Builder<String> builder() {
        return MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8())).server(MqttServer.of("localhost", 1883));
    }

    @Test
    void whenFiltersBreakMqttsRules_thenTheBuilderNamesTheFilterAndTheRule() {
        assertThatThrownBy(() -> builder().topicFilters("plant/#/temp"))
                .hasMessage("MQTT source: topic filter 'plant/#/temp': '#' must be a whole level and the last one");
        assertThatThrownBy(() -> builder().topicFilters("plant/m+/temp"))
                .hasMessage("MQTT source: topic filter 'plant/m+/temp': '+' must be a whole level");
        assertThatThrownBy(() -> builder().topicFilters("$share/g/plant/#"))
                .hasMessageContaining("give the group with option 'sharedSubscription'");
        assertThatThrownBy(() -> builder().qos(3)).hasMessage("option 'qos' must be 0, 1 or 2 (the MQTT QoS level), was 3");
        assertThatThrownBy(() -> builder().build()).hasMessage("MQTT source: option 'topicFilters' is required: name at least one topic filter");
        assertThatThrownBy(() -> builder().sharedSubscription("a/b")).hasMessageContaining("option 'sharedSubscription'");
        assertThatThrownBy(() -> builder().clientIdPrefix("has space")).hasMessageContaining("option 'clientIdPrefix'");
        assertThatThrownBy(() -> MqttServer.of("localhost", 1883).withReceiveMaximum(0)).hasMessageContaining("option 'receiveMaximum'");
        assertThatThrownBy(() -> MqttServer.of("localhost", 1883).withReconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("option 'reconnectBackoff'");
        assertThat(builder().topicFilters("plant/+/temp", "plant/#", "#", "+").build()).isNotNull();
    }

    @Test
    void whenNotShared_thenTheFiltersSpreadOverAtMostOneSessionEach_andWhenShared_everySessionHasEveryFilterInTheGroup() {
        MqttSource<String> spread = builder().topicFilters("a/#", "b/#", "c/#").build();
        assertThat(spread.createSplits(2)).containsExactly(new MqttSessionSplit(0, List.of("a/#", "c/#")), new MqttSessionSplit(1, List.of("b/#")));
        assertThat(spread.createSplits(8)).hasSize(3);
        MqttSource<String> shared = builder().topicFilters("a/#", "b/+").sharedSubscription("g").build();
        assertThat(shared.createSplits(3)).hasSize(3).allSatisfy(s -> assertThat(s.filters()).containsExactly("$share/g/a/#", "$share/g/b/+"));
        assertThat(builder().topicFilters("a/#").sharedSubscription("g").sessions(5).build().createSplits(2)).hasSize(5);
        assertThat(new MqttSessionSplit(4, List.of()).clientId("plant-7")).isEqualTo("plant-7-4");
    }

    @Test
    void whenASessionIsStored_thenItReadsBackTheSame_andDamagedBytesAreRefusedNamingTheCodec() throws Exception {
        MqttSessionSplit.Codec codec = new MqttSessionSplit.Codec();
        MqttSessionSplit split = new MqttSessionSplit(3, List.of("$share/g/plant/+/temp", "plant/€/#"));
        byte[] bytes = codec.encode(split);
        assertThat(codec.decode(1, bytes)).isEqualTo(split);
        assertThatThrownBy(() -> codec.decode(1, java.util.Arrays.copyOf(bytes, bytes.length - 2)))
                .hasMessageContaining("MqttSessionSplit.Codec: the bytes end early for version 1");
        assertThatThrownBy(() -> codec.decode(2, bytes)).hasMessageContaining("reads versions 1 to 1, not 2");
    }
}
