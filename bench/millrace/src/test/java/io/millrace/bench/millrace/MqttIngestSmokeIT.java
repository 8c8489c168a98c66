package io.millrace.bench.millrace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The MQTT suite on a few thousand readings against a real Mosquitto: every engine counts every reading, at both QoS. */
class MqttIngestSmokeIT {
    @Test
    void onFiveThousandReadings_bothEnginesReadEveryOne_atQos0And1_andTheRatiosArePrinted() throws Exception {
        List<String> lines = MqttIngest.run("--records", "5000", "--keys", "50", "--checkpoint-interval-ms", "200");

        List<String> rounds = lines.stream().filter(l -> l.startsWith("ROUND ")).toList();
        assertThat(rounds).hasSize(4).allSatisfy(l -> assertThat(l).contains("records=5000").contains("correct=yes"));
        assertThat(rounds).anyMatch(l -> l.contains("engine=millrace qos=0")).anyMatch(l -> l.contains("engine=millrace qos=1"))
                .anyMatch(l -> l.contains("engine=broker qos=0")).anyMatch(l -> l.contains("engine=broker qos=1"));
        assertThat(lines.stream().filter(l -> l.startsWith("RESULT suite=mqtt engine="))).hasSize(4);
        assertThat(lines).anyMatch(l -> l.matches("RATIO suite=mqtt qos=0 millrace_over_broker=\\d+\\.\\d\\d goal=0\\.80"))
                .anyMatch(l -> l.matches("RATIO suite=mqtt qos=1 millrace_over_broker=\\d+\\.\\d\\d goal=0\\.50"));
    }
}
