package io.millrace.api.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OperatorMetricsTest {
    private static OperatorMetrics withWatermark(long watermark) {
        return new OperatorMetrics("window", 0, 10, 2, watermark, 0, 0, 0);
    }

    @Test
    void watermarkLag_isTheProcessingTimeAheadOfTheWatermark_andZeroWithoutARealWatermarkOrWhenItLeads() {
        assertThat(withWatermark(1_000).watermarkLagMillis(1_250)).isEqualTo(250);
        assertThat(withWatermark(Long.MIN_VALUE).watermarkLagMillis(1_250)).as("no watermark yet").isZero();
        assertThat(withWatermark(Long.MAX_VALUE).watermarkLagMillis(1_250)).as("after the final watermark").isZero();
        assertThat(withWatermark(2_000).watermarkLagMillis(1_250)).as("watermark ahead of the clock").isZero();
    }
}
