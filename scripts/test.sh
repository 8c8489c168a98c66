#!/usr/bin/env bash
# The whole test suite: builds every module and runs its unit (*Test) and integration (*IT) tests.
# Needs a JDK 17 and Maven (dependencies come from Maven Central). The connectors' tests start real servers from
# Debian's packages, installed below only when missing: PostgreSQL (postgresql-15) and Mosquitto.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${MILLRACE_PG_BIN:-}" ]; then
  missing+=(postgresql-15)
fi
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
  missing+=(mosquitto)
fi
if [ ${#missing[@]} -gt 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null
fi
exec mvn -B -ntp verify "$@"
