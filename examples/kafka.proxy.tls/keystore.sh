#!/bin/sh
# Makes the example's throwaway key: a self-signed EC certificate for *.kafka.localhost (the bootstrap name and every
# broker-<id> name) in a PKCS12 store, tls/kafka.p12 next to this script (or in the directory given), with the
# password $KEYSTORE_PASSWORD, and the certificate alone, tls/kafka.crt (PEM), for the clients to trust.
# Neither is ever committed (.gitignore); run this again to replace them.
set -eu

directory="${1:-$(dirname "$0")/tls}"
: "${KEYSTORE_PASSWORD:?set KEYSTORE_PASSWORD, the password zilla.yaml reads the store with}"

mkdir -p "$directory"
rm -f "$directory/kafka.p12" "$directory/kafka.crt"
keytool -genkeypair -alias kafka -keyalg EC -groupname secp256r1 -validity 30 \
  -dname CN=kafka.localhost -ext "san=dns:*.kafka.localhost" -ext bc:c=ca:false -ext eku=serverAuth \
  -storetype PKCS12 -keystore "$directory/kafka.p12" -storepass "$KEYSTORE_PASSWORD"
keytool -exportcert -rfc -alias kafka -keystore "$directory/kafka.p12" -storepass "$KEYSTORE_PASSWORD" \
  -file "$directory/kafka.crt"
echo "made $directory/kafka.p12 and $directory/kafka.crt"
