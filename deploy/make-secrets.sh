#!/bin/sh
# The secrets of deploy/compose.yaml's cluster profile (docs/cluster.md), made with openssl:
#
#   redis_password, postgres_password   random passwords (64 hex digits: safe in any URL)
#   redis_users.acl                     Redis's users: "tertulia" (the password's SHA-256 only,
#                                       its keys and channels only), a PING-only "healthcheck",
#                                       and no default user
#   ca.pem, ca.key                      a private certificate authority, for the back channel
#   redis.pem, redis.key                Redis's TLS certificate, signed by it
#   postgres.pem, postgres.key          PostgreSQL's
#
#     sh deploy/make-secrets.sh          # into deploy/secrets/
#     sh deploy/make-secrets.sh DIR      # elsewhere
#
# A file that exists is kept, so running it again only adds what is missing; to renew the
# certificates, delete the *.pem and *.key files first (all of them: a new CA signs new ones).
# The folder is 0700: nobody else on the machine gets in. The files in it are readable
# (0644, ca.key 0600) because Compose bind-mounts each secret into its container as it is,
# and the services read them as their own unprivileged users. ca.key goes to no container.
#
# Names in the certificates (who the clients may reach): REDIS_HOSTS and POSTGRES_HOSTS,
# space-separated names or IPv4 addresses; by default the compose services' names, plus
# localhost and 127.0.0.1 for tools on the same machine.
set -eu

dir=${1:-$(dirname "$0")/secrets}
redis_hosts=${REDIS_HOSTS:-redis localhost 127.0.0.1}
postgres_hosts=${POSTGRES_HOSTS:-postgres localhost 127.0.0.1}
namespace=${TERTULIA_REDIS_NAMESPACE:-tertulia}

umask 077
mkdir -p "$dir"
chmod 0700 "$dir"
cd "$dir"

password() {
    [ -e "$1" ] || { openssl rand -hex 32 > "$1"; chmod 0644 "$1"; }
}

san() {  # "redis localhost 127.0.0.1" -> "DNS:redis,DNS:localhost,IP:127.0.0.1"
    out=""
    for name in $1; do
        case $name in
            *[!0-9.]*) entry="DNS:$name" ;;
            *) entry="IP:$name" ;;
        esac
        out="${out:+$out,}$entry"
    done
    printf '%s' "$out"
}

certificate() {  # certificate NAME "HOSTS"
    [ -e "$1.pem" ] && return 0
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null
    openssl req -new -key "$1.key" -subj "/CN=$1" -out "$1.csr"
    cat > "$1.ext" <<EOF
subjectAltName = $(san "$2")
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
EOF
    openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -sha256 -days 825 \
        -set_serial "0x$(openssl rand -hex 16)" -extfile "$1.ext" -out "$1.pem" 2>/dev/null
    rm -f "$1.csr" "$1.ext"
    chmod 0644 "$1.pem" "$1.key"
}

password redis_password
password postgres_password

if [ ! -e redis_users.acl ]; then
    hash=$(tr -d '\n' < redis_password | openssl dgst -sha256 -r | cut -d' ' -f1)
    cat > redis_users.acl <<EOF
user default off
user healthcheck on nopass -@all +ping
user tertulia on #$hash ~$namespace:* &$namespace:* +@all -@dangerous
EOF
    chmod 0644 redis_users.acl
fi

if [ ! -e ca.pem ]; then
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key 2>/dev/null
    openssl req -x509 -new -key ca.key -sha256 -days 3650 \
        -subj "/CN=Tertulia back channel CA" \
        -addext "basicConstraints = critical, CA:TRUE" \
        -addext "keyUsage = critical, keyCertSign, cRLSign" \
        -addext "subjectKeyIdentifier = hash" -out ca.pem
    chmod 0644 ca.pem
fi

certificate redis "$redis_hosts"
certificate postgres "$postgres_hosts"

echo "secrets in $(pwd)"
