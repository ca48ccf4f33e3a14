#!/bin/sh
# The browser of the dashboard's tests: Debian's chromium (Playwright drives it by path; it
# never downloads a browser). Installed with apt when missing: as root, or with sudo.
set -eu
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "chromium is missing at $CHROMIUM, and installing it needs root (apt-get install chromium)" >&2
    exit 1
fi
echo "installing Debian's chromium for the browser tests (apt)" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
"$CHROMIUM" --version
