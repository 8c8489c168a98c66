package io.millrace.runtime.state.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteWriterTest {
    @Test
    void aPartWrittenInPlace_isTheSameBytesAsItsLengthThenThePart_forLengthsOfOneToThreeVarIntBytes() {
        Random random = new Random(17);
        for (int length : new int[] {1, 2, 127, 128, 300, 16_383, 16_384, 100_000, 2_097_151, 2_097_152}) {
            byte[] part = new byte[length];
            random.nextBytes(part);
            byte[] before = new byte[random.nextInt(40)];
            random.nextBytes(before);

            ByteWriter inPlace = new ByteWriter(16);
            inPlace.write(before);
            int start = inPlace.startLengthPrefixed();
            inPlace.write(part); // grows the buffer while the part is written, for the longer parts
            assertThat(inPlace.endLengthPrefixed(start)).isEqualTo(length);
            inPlace.writeByte(0x5A);

            ByteWriter copied = new ByteWriter(16);
            copied.write(before);
            copied.writeVarInt(length);
            copied.write(part);
            copied.writeByte(0x5A);
            assertThat(inPlace.toByteArray()).as("length %d", length).isEqualTo(copied.toByteArray());
        }
    }

    @Test
    void truncateKeepsTheBytesBeforeTheNewSize_andRefusesToGrow() {
        ByteWriter w = new ByteWriter(16);
        w.writeInt(0x01020304);
        w.truncate(2);
        w.writeByte(9);
        assertThat(w.toByteArray()).containsExactly(1, 2, 9);
        assertThatThrownBy(() -> w.truncate(4)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 bytes to 4");
    }
}
