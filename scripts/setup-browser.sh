#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (Playwright's own
# browser download cannot work here). Needs root and apt; otherwise it says so and the
# browser tests report the missing browser.
set -uo pipefail
# The emoji font draws the board's icons (⛺ 📦 ⚔ 👑 🔔) in screenshots.
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi "color emoji"; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium for the browser tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
else
  echo "warning: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get)" >&2
fi
