#!/usr/bin/env bash
# Installs the Debian packages the tests drive for real when missing: Chromium (Lighthouse) and its headless shell
# (the other browser tests: the same engine without the browser's own interface, a fifth less CPU), Radicale (CalDAV),
# faketime (the calendar tests again with the clock moved, tests/any-date.sh).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v radicale >/dev/null 2>&1 || need+=(radicale)
command -v faketime >/dev/null 2>&1 || need+=(faketime)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
