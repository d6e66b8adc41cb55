#!/usr/bin/env bash
# Installs the Redis server the cluster tests use (Redis pub/sub fan-out) when it is missing.
# PostgreSQL is the machine's own. Needs root and apt; otherwise it says so, and the Redis
# tests skip (or fail when CI is set).
set -uo pipefail
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing redis-server for the cluster tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
else
  echo "warning: redis-server is missing and cannot be installed here (needs root and apt-get)" >&2
fi
