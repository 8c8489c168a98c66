#!/usr/bin/env bash
# The whole test suite: builds every module and runs its unit (*Test) and integration (*IT) tests.
# Needs a JDK 17 and Maven (dependencies come from Maven Central), and for the PostgreSQL connector the
# binaries of a Debian postgresql-NN package (postgresql-15 is installed below when there are none).
set -euo pipefail
cd "$(dirname "$0")/.."
# the PostgreSQL connector's tests start a server of their own from Debian's binaries: install them only when missing
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${MILLRACE_PG_BIN:-}" ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
fi
exec mvn -B -ntp verify "$@"
