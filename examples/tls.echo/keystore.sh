#!/bin/sh
# Makes the example's throwaway key: a self-signed EC certificate for localhost in a PKCS12 store,
# tls/localhost.p12 next to this script (or in the directory given), with the password $KEYSTORE_PASSWORD.
# The store is never committed (.gitignore); run this again to replace it.
set -eu

directory="${1:-$(dirname "$0")/tls}"
: "${KEYSTORE_PASSWORD:?set KEYSTORE_PASSWORD, the password zilla.yaml reads the store with}"

mkdir -p "$directory"
rm -f "$directory/localhost.p12"
keytool -genkeypair -alias localhost -keyalg EC -groupname secp256r1 -validity 30 \
  -dname CN=localhost -ext san=dns:localhost,ip:127.0.0.1 \
  -storetype PKCS12 -keystore "$directory/localhost.p12" -storepass "$KEYSTORE_PASSWORD"
echo "made $directory/localhost.p12"
