/**
 * Formats shared by the connectors: how a {@link io.millrace.api.row.Row} becomes the bytes of a message and back.
 * A format names the field and what was wrong when bytes do not fit its row type ({@link FormatException}), so a
 * source can apply its bad-record policy with a reason.
 */
package io.millrace.format;
