/**
 * Stable, versioned storage of sink committables in checkpoints ({@link io.millrace.api.sink.versioned.VersionedCommittables}),
 * apart from {@code io.millrace.api.sink} so that the sink API does not depend on the source API's codec types.
 */
package io.millrace.api.sink.versioned;
