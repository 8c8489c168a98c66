package io.millrace.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DivisorTest {
    @Test
    void dividesLikeTheDivisionOperatorOnRandomAndEdgeArguments() {
        Random random = new Random(20261130L);
        long[] divisors = {1, 2, 3, 7, 1000, 999_983, 10_000_000, 25_000_000, 1L << 40, (1L << 52) - 1, Long.MAX_VALUE};
        for (long d : divisors) {
            Divisor div = new Divisor(d);
            for (long n : edges(d)) {
                assertThat(div.divide(n)).as("%d / %d", n, d).isEqualTo(n / d);
            }
        }
        for (int k = 0; k < 200_000; k++) {
            long d = 1 + (random.nextLong() >>> (1 + random.nextInt(63)));
            long n = random.nextLong() >>> random.nextInt(64);
            Divisor div = new Divisor(d);
            assertThat(div.divide(n)).as("%d / %d", n, d).isEqualTo(n / d);
            long q = n / d; // the multiples right around n, where a rounding error would show
            for (long m : new long[] {q * d - 1, q * d, q * d + 1, (q + 1) * d - 1}) {
                if (m >= 0) {
                    assertThat(div.divide(m)).as("%d / %d", m, d).isEqualTo(m / d);
                }
            }
        }
    }

    private static long[] edges(long d) {
        long top = (1L << 52) - 1;
        return new long[] {0, 1, d - 1, d, d + 1, 2 * d - 1, top, top - top % d, top - top % d - 1, 1L << 52, Long.MAX_VALUE, -1, -d};
    }

    @Test
    void refusesADivisorThatIsNotPositive() {
        assertThatThrownBy(() -> new Divisor(0)).hasMessageContaining("must be positive, was 0");
    }
}
