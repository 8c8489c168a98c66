#!/usr/bin/env bash
# The whole test suite: builds every module and runs its unit (*Test) and integration (*IT) tests.
# Needs a JDK 17 and Maven; dependencies come from Maven Central; Mosquitto is installed with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# the MQTT tests start a real Mosquitto broker (Debian's package): installed here when missing
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto) >/dev/null
fi
exec mvn -B -ntp verify "$@"
