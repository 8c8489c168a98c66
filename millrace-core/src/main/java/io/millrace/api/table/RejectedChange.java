package io.millrace.api.table;

import io.millrace.api.row.Row;

/**
 * A changelog record that an operator could not apply, sent to its {@code REJECTED} side output instead of
 * failing the job or being dropped: {@code change} as it arrived, {@code reason} what was wrong with it, naming
 * the operator's key.
 */
public record RejectedChange(Row change, String reason) {}
