#!/bin/sh
# What the tests run for real, from Debian's packages, installed with apt when missing (as root,
# or with sudo): chromium (the dashboard's browser tests: Playwright drives it by path and never
# downloads a browser), mosquitto (the MQTT broker) and postgresql (the central store). The tests
# start their own servers on loopback, in their own folders; nothing here starts a service. And
# fonts-dejavu-core: the renderer's TrueType index fonts (models/synth/cards.py, FONTS).
set -eu
missing=""
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf ] || missing="$missing fonts-dejavu-core"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -x /usr/sbin/mosquitto ] || missing="$missing mosquitto"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
if [ -z "$missing" ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "missing Debian packages:$missing; installing them needs root (apt-get install$missing)" >&2
    exit 1
fi
echo "installing Debian packages for the tests:$missing" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
