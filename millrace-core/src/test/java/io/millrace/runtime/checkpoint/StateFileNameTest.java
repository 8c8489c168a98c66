package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StateFileNameTest {
    @Test
    void plainNamesStay_andEverythingElseIsEscaped() {
        assertThat(StateFileName.of("window-agg_2.keyed")).isEqualTo("window-agg_2.keyed");
        assertThat(StateFileName.of("../etc/passwd")).isEqualTo("%2E.%2Fetc%2Fpasswd");
        assertThat(StateFileName.of("_metadata")).isEqualTo("%5Fmetadata");
        assertThat(StateFileName.of("a b:c°")).isEqualTo("a%20b%3Ac%C2%B0");
    }

    @Test
    void differentNames_giveDifferentFiles_thatPassTheMetadataCheck() {
        List<String> names = List.of("a/b", "a_b", "a%2Fb", "a:b", "A/b", ".a", "%2Ea", "_a", "a", "é", "%C3%A9");
        Set<String> files = new HashSet<>();
        for (String name : names) {
            String file = StateFileName.of(name);
            StateFileName.check(file);
            files.add(file);
        }
        assertThat(files).hasSize(names.size());
    }

    @Test
    void longNames_areCutWithAChecksum() {
        String longA = "x".repeat(300) + "a";
        String longB = "x".repeat(300) + "b";

        assertThat(StateFileName.of(longA)).hasSize(StateFileName.MAX_LENGTH).isNotEqualTo(StateFileName.of(longB));
    }

    @Test
    void metadataCheck_rejectsNamesLeavingTheDirectory() {
        for (String bad : List.of("", "../x", "a/b", "a\\b", "_metadata", ".hidden", "c:x")) {
            assertThatThrownBy(() -> StateFileName.check(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
