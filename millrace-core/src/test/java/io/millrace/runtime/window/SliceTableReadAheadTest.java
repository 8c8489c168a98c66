package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.state.ReadAhead;
import org.junit.jupiter.api.Test;

/** {@link ReadAhead} only reads: it finds no instance of its own class, skips nulls, and respects its range. */
class SliceTableReadAheadTest {

    @Test
    void readsTheRangeWithoutChangingIt() {
        Object[] objects = {"a", null, 7L, new int[3], null, new SliceTable()};
        Object[] before = objects.clone();
        assertThat(ReadAhead.headers(objects, 0, objects.length)).isZero();
        assertThat(ReadAhead.headers(objects, 2, 2)).isZero();
        assertThat(objects).isEqualTo(before);
    }

    @Test
    void aTableReadsItsKeysAndValuesAhead() {
        SliceTable t = new SliceTable();
        for (long k = 0; k < 100; k++) {
            t.add(k, Long.hashCode(k), "v" + k);
        }
        assertThat(t.readAhead(0, 100)).isZero();
        assertThat(t.readAhead(64, 100)).isZero();
        assertThat(t.get(42L, Long.hashCode(42L))).isEqualTo("v42");
    }
}
