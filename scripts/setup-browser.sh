#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (Playwright's own
# browser download cannot work here). Needs root and apt; otherwise it says so and the
# browser tests report the missing browser.
set -uo pipefail
# The board's icons are SVG (web/static/icons.svg): no emoji font is needed; DejaVu draws the text.
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium for the browser tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
else
  echo "warning: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get)" >&2
fi
