package io.millrace.bench.workload;

/**
 * Floor division of a non-negative {@code long} by a divisor fixed at construction, with the same result as
 * {@code n / d} but by a multiplication with a precomputed "magic" number and a shift, which costs a fraction of a
 * 64-bit division instruction. The generator divides by run constants (events per second, a reader's range length)
 * on every event.
 *
 * <p>Exactness (the round-up method of Granlund and Montgomery): with {@code L = ceil(log2 d)},
 * {@code k = 52 + L} and {@code m = ceil(2^k / d)}, the error {@code e = m d - 2^k} is below {@code d <= 2^L}, so
 * {@code floor(n m / 2^k) = floor(n / d)} for every {@code n < 2^52}. The product has up to 105 bits and is taken
 * from {@link Math#multiplyHigh} and the low word. Dividends from 2^52 up, negative ones and divisors from 2^52 up
 * fall back to {@code /}.
 */
final class Divisor implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final int BITS = 52;
    private static final long EXACT_BELOW = 1L << BITS;
    private final long divisor;
    private final long magic;
    /** {@code k}: the quotient is the 128-bit product shifted right by {@code k}. */
    private final int shift;

    Divisor(long divisor) {
        if (divisor <= 0) {
            throw new IllegalArgumentException("divisor must be positive, was " + divisor);
        }
        this.divisor = divisor;
        if (divisor >= EXACT_BELOW) {
            this.magic = 0;
            this.shift = 0;
        } else {
            int log = 64 - Long.numberOfLeadingZeros(divisor - 1); // ceil(log2 d), 0 for d = 1
            this.shift = BITS + log;
            this.magic = java.math.BigInteger.ONE.shiftLeft(shift).add(java.math.BigInteger.valueOf(divisor - 1))
                    .divide(java.math.BigInteger.valueOf(divisor)).longValueExact();
        }
    }

    /** {@code n / divisor}. */
    long divide(long n) {
        if (n < 0 || n >= EXACT_BELOW || magic == 0) {
            return n / divisor;
        }
        long high = Math.multiplyHigh(n, magic);
        if (shift >= 64) {
            return high >>> (shift - 64);
        }
        return (high << (64 - shift)) | ((n * magic) >>> shift);
    }
}
