#!/usr/bin/env bash
# Installs what the service tests need when it is missing: the Redis server the cluster tests
# use (Redis pub/sub fan-out) and nginx, the reverse proxy the proxy test puts in front of two
# server processes (Debian's package; the test runs its own nginx, not the system's service).
# PostgreSQL is the machine's own. Needs root and apt; otherwise it says so, and those tests
# skip (or fail when CI is set).
set -uo pipefail
missing=()
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  missing+=(redis-server)
fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  missing+=(nginx)
fi
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} for the service tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "warning: ${missing[*]} missing and cannot be installed here (needs root and apt-get)" >&2
fi
