#!/usr/bin/env bash
# The whole test suite: builds every module and runs its unit (*Test) and integration (*IT) tests.
# Needs only a JDK 17 and Maven; dependencies come from Maven Central.
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -ntp verify "$@"
