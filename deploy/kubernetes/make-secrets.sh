#!/bin/sh
# make-secrets.sh [DIR] -- the files kustomization.yaml turns into Secrets, in DIR (default:
# secrets/ next to this script), each mode 0600: token (the shared agent token, 64 hex digits),
# tls.crt and tls.key (the controller's P-256 certificate and key, valid 2 years: the agents' pin
# stays the same from run to run) and password (the target accounts' password, from the
# environment variable SESSMAX_PASSWORD, never an argument). Existing files are kept, so running it
# again does not change the pin. Prints the certificate's fingerprint.
set -eu
dir=${1:-$(dirname "$0")/secrets}
mkdir -p "$dir"
umask 077
[ -s "$dir/token" ] || openssl rand -hex 32 | tr -d '\n' >"$dir/token"
if [ ! -s "$dir/tls.crt" ] || [ ! -s "$dir/tls.key" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=sessmax-controller \
        -days 730 -keyout "$dir/tls.key" -out "$dir/tls.crt" 2>/dev/null
fi
if [ ! -s "$dir/password" ]; then
    [ -n "${SESSMAX_PASSWORD:-}" ] || { echo "make-secrets.sh: set SESSMAX_PASSWORD to the target accounts' password" >&2; exit 64; }
    printf '%s' "$SESSMAX_PASSWORD" >"$dir/password"
fi
echo "controller certificate: sha256:$(openssl x509 -in "$dir/tls.crt" -noout -fingerprint -sha256 | cut -d= -f2)"
