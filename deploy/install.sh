#!/bin/bash
# Install Feltwatch on a plain Debian 12 host (no containers). Run as root from the checkout:
#
#   deploy/install.sh --table NAME [--broker HOST]   an appliance under table NAME
#   deploy/install.sh --central                      the floor's central service, with its
#                                                    Mosquitto broker and PostgreSQL database
#   deploy/install.sh --add-table NAME               (on the central host) a broker account for
#                                                    table NAME; prints its password
#
# It installs the code in /opt/feltwatch (a venv with the pinned versions of constraints.txt),
# configuration in /etc/feltwatch, state in /var/lib/feltwatch, and the systemd units. It never
# overwrites a configuration file that exists.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/feltwatch
ETC=/etc/feltwatch
MOSQ=/etc/mosquitto

die() { echo "install: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root"
[ $# -ge 1 ] || die "usage: $0 --table NAME [--broker HOST] | --central | --add-table NAME"

apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"; }
secret() { head -c 24 /dev/urandom | base64 | tr -d '/+=' ; }
put() {  # put FILE CONTENT: write a configuration file only if it is not there yet
    if [ -e "$1" ]; then echo "keeping $1"; else printf '%s\n' "$2" > "$1"; echo "wrote $1"; fi
}

install_code() {
    apt-get update -q
    apt_install python3.11 python3.11-venv rsync
    id feltwatch >/dev/null 2>&1 || useradd --system --home /var/lib/feltwatch --shell /usr/sbin/nologin feltwatch
    install -d -o feltwatch -g feltwatch /var/lib/feltwatch
    install -d -m 0750 -o root -g feltwatch "$ETC"
    rsync -a --delete --exclude .git --exclude '.venv*' --exclude build "$SRC/" "$PREFIX/"
    python3.11 -m venv "$PREFIX/.venv"
    "$PREFIX/.venv/bin/pip" install --quiet -c "$PREFIX/constraints.txt" "$PREFIX"
}

case "$1" in
--table)
    NAME="${2:?--table NAME}"
    BROKER="${4:-}"
    install_code
    put "$ETC/table.yaml" "$(sed "s/^  name: table-07/  name: $NAME/" "$SRC/deploy/table.yaml")"
    if [ -n "$BROKER" ]; then
        put "$ETC/mqtt-password" "(paste the password printed by install.sh --add-table $NAME on the central host)"
        cat >> "$ETC/table.yaml" <<YAML
central:
  broker: {host: $BROKER, port: 8883, username: $NAME, password_file: $ETC/mqtt-password,
           tls_ca: $ETC/ca.crt}
YAML
        echo "copy the central host's /etc/mosquitto/certs/ca.crt to $ETC/ca.crt"
    fi
    install -m 0644 "$SRC/deploy/systemd/feltwatch.service" /etc/systemd/system/
    systemctl daemon-reload
    systemctl enable feltwatch.service
    echo "next: calibrate the cameras (feltwatch calibrate), edit $ETC/table.yaml, check it with"
    echo "  $PREFIX/.venv/bin/feltwatch config validate $ETC/table.yaml"
    echo "create the first account: $PREFIX/.venv/bin/feltwatch users add NAME --role admin --config $ETC/table.yaml"
    echo "then: systemctl start feltwatch"
    ;;
--central)
    install_code
    apt_install mosquitto postgresql openssl
    # the broker: TLS (a CA of the floor's own), an account per table, the ACL
    install -d -m 0750 -o mosquitto -g mosquitto "$MOSQ/certs"
    if [ ! -e "$MOSQ/certs/broker.crt" ]; then
        openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/CN=Feltwatch floor CA" \
            -keyout "$MOSQ/certs/ca.key" -out "$MOSQ/certs/ca.crt"
        openssl req -newkey rsa:3072 -nodes -subj "/CN=$(hostname -f)" \
            -keyout "$MOSQ/certs/broker.key" -out "$MOSQ/certs/broker.csr"
        openssl x509 -req -in "$MOSQ/certs/broker.csr" -CA "$MOSQ/certs/ca.crt" \
            -CAkey "$MOSQ/certs/ca.key" -CAcreateserial -days 3650 -out "$MOSQ/certs/broker.crt"
        chown mosquitto:mosquitto "$MOSQ/certs/"*
        chmod 0600 "$MOSQ/certs/"*.key
    fi
    install -m 0644 "$SRC/deploy/mosquitto/feltwatch.conf" "$MOSQ/conf.d/feltwatch.conf"
    install -m 0644 "$SRC/deploy/mosquitto/acl" "$MOSQ/feltwatch.acl"
    touch "$MOSQ/feltwatch.passwords"
    chown mosquitto:mosquitto "$MOSQ/feltwatch.passwords"
    chmod 0600 "$MOSQ/feltwatch.passwords"
    if [ ! -e "$ETC/mqtt-password" ]; then
        secret > "$ETC/mqtt-password"
        mosquitto_passwd -b "$MOSQ/feltwatch.passwords" central "$(cat "$ETC/mqtt-password")"
    fi
    # the database
    if [ ! -e "$ETC/db-password" ]; then
        secret > "$ETC/db-password"
        runuser -u postgres -- psql -v ON_ERROR_STOP=1 -v password="'$(cat "$ETC/db-password")'" \
            -f "$SRC/deploy/postgres/setup.sql"
    fi
    chown root:feltwatch "$ETC/mqtt-password" "$ETC/db-password"
    chmod 0640 "$ETC/mqtt-password" "$ETC/db-password"
    put "$ETC/central.yaml" "$(cat "$SRC/deploy/central.yaml")"
    install -m 0644 "$SRC/deploy/systemd/feltwatch-central.service" /etc/systemd/system/
    systemctl daemon-reload
    systemctl restart mosquitto
    systemctl enable --now feltwatch-central.service
    echo "create the first account: $PREFIX/.venv/bin/feltwatch users add NAME --role admin --central --config $ETC/central.yaml"
    echo "add each table: $0 --add-table NAME"
    ;;
--add-table)
    NAME="${2:?--add-table NAME}"
    [[ "$NAME" =~ ^[A-Za-z0-9_-]+$ ]] || die "a table name is letters, digits, - and _"
    [ "$NAME" != central ] || die "'central' is the central service's account"
    PASSWORD="$(secret)"
    mosquitto_passwd -b "$MOSQ/feltwatch.passwords" "$NAME" "$PASSWORD"
    systemctl reload mosquitto || systemctl restart mosquitto
    echo "table $NAME: broker password $PASSWORD (write it to /etc/feltwatch/mqtt-password on the table)"
    ;;
*)
    die "unknown option $1"
    ;;
esac
