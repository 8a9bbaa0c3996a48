/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.zilla.engine.Engine;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vault that cannot be loaded stops startup with a configuration error at the option at fault: its line, column and
 * path, and a message that names the file and never the password.
 */
class FileSystemVaultErrorsTest
{
    @TempDir
    static Path directory;

    private static TestStores stores;

    @BeforeAll
    static void createStores()
    {
        stores = TestStores.create(directory);
        stores.pkcs12Keys("server", "localhost");
        stores.pkcs12Trust("trust.p12", "ca");
        stores.jks("server.jks", "server.p12");
        stores.truncated("corrupt.jks", "server.jks", 100);
        stores.write("garbage.jks", "not a key store at all\n");
        stores.write("cas/ca.crt", stores.read("ca.crt"));
        stores.write("cas/CA.pem", stores.read("other-ca.crt"));
        stores.write("server.pem", stores.encryptedKey("server"), stores.read("server.crt"));
        stores.write("lonely/server.key", stores.read("server.key"));
        stores.write("ec.pem", "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n", stores.read("server.crt"));
    }

    @Test
    void shouldStopStartupWhenAStoreDoesNotExist()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> Engine.builder()
            .config(directory.resolve("zilla.yaml").toString(), keys("nope.p12", "pkcs12", "${{env.PASSWORD}}"))
            .environment(name -> TestStores.PASSWORD)
            .build());

        assertEquals(List.of("8:16 vaults.server.options.keys.store: '" + stores.path("nope.p12") + "' does not exist"),
            errors(ex));
    }

    @Test
    void shouldSayThatAPasswordIsWrongWithoutPrintingIt()
    {
        final ConfigException ex = refused(keys("server.p12", "pkcs12", "${{env.WRONG_PASSWORD}}"));

        assertEquals(List.of("10:19 vaults.server.options.keys.password: wrong password for '" + stores.path("server.p12") + "'"),
            errors(ex));
        assertFalse(ex.getMessage().contains("not-the-password"), ex.getMessage());
    }

    @Test
    void shouldSayThatAPkcs12StoreNeedsAPassword()
    {
        final ConfigException ex = refused(keys("server.p12", "pkcs12", null));

        assertEquals(List.of("7:7 vaults.server.options.keys: '" + stores.path("server.p12")
            + "' needs a password: its private key 'localhost' is encrypted"),
            errors(ex));
    }

    @Test
    void shouldSayThatAPkcs12TrustStoreNeedsAPassword()
    {
        final ConfigException ex = refused(TestVaults.filesystem("example", "server", """
            trust:
              store: trust.p12
            """));

        assertEquals(List.of("6:7 vaults.server.options.trust: '" + stores.path("trust.p12")
            + "' holds no certificate that can be read without a password: give its password"), errors(ex));
    }

    @Test
    void shouldSayThatAFileIsNotOfItsDeclaredType()
    {
        final ConfigException notPkcs12 = refused(keys("server.pem", "pkcs12", "${{env.PASSWORD}}"));
        final ConfigException notPem = refused(keys("server.p12", "pem", "${{env.PASSWORD}}"));

        assertEquals(List.of("9:15 vaults.server.options.keys.type"), places(notPkcs12));
        assertEquals(true, notPkcs12.errors().get(0).message().startsWith("'" + stores.path("server.pem")
            + "' is not a pkcs12 store ("), notPkcs12.getMessage());
        assertEquals(List.of("9:15 vaults.server.options.keys.type: '" + stores.path("server.p12")
            + "' is not a pem file (no -----BEGIN block)"), errors(notPem));
    }

    @Test
    void shouldSayThatAJksPasswordIsWrongOrMissingWithoutPrintingIt()
    {
        final ConfigException wrong = refused(keys("server.jks", "jks", "${{env.WRONG_PASSWORD}}"));
        final ConfigException missing = refused(keys("server.jks", "jks", null));

        assertEquals(List.of("10:19 vaults.server.options.keys.password: wrong password for '" + stores.path("server.jks")
            + "'"), errors(wrong));
        assertFalse(wrong.getMessage().contains("not-the-password"), wrong.getMessage());
        assertEquals(List.of("7:7 vaults.server.options.keys: '" + stores.path("server.jks")
            + "' needs a password: its private key 'localhost' is encrypted"), errors(missing));
    }

    @Test
    void shouldSayThatAJksFileIsCorruptOrNotJks()
    {
        final ConfigException corrupt = refused(keys("corrupt.jks", "jks", "${{env.PASSWORD}}"));
        final ConfigException garbage = refused(keys("garbage.jks", "jks", "${{env.PASSWORD}}"));
        final ConfigException directory = refused(keys(".", "jks", "${{env.PASSWORD}}"));

        assertEquals(List.of("9:15 vaults.server.options.keys.type: '" + stores.path("corrupt.jks")
            + "' is not a jks store (it ends before its last entry)"), errors(corrupt));
        assertEquals(List.of("9:15 vaults.server.options.keys.type"), places(garbage));
        assertTrue(garbage.errors().get(0).message().startsWith("'" + stores.path("garbage.jks") + "' is not a jks store ("),
            garbage.getMessage());
        assertEquals(List.of("8:16 vaults.server.options.keys.store: '" + FileSystemVaultErrorsTest.directory
            + "' is a directory: a jks store is a file"), errors(directory));
    }

    @Test
    void shouldSayThatAnEncryptedKeyNeedsItsPassword()
    {
        final ConfigException none = refused(keys("server.pem", "pem", null));
        final ConfigException wrong = refused(keys("server.pem", "pem", "${{env.WRONG_PASSWORD}}"));

        assertEquals(List.of("7:7 vaults.server.options.keys: the private key in '" + stores.path("server.pem")
            + "' is encrypted: give its password"), errors(none));
        assertEquals(List.of("10:19 vaults.server.options.keys.password: cannot decrypt the private key in '"
            + stores.path("server.pem") + "': wrong password"), errors(wrong));
    }

    @Test
    void shouldSayWhatAPemStoreLacks()
    {
        final ConfigException lonely = refused(keys("lonely", "pem", null));
        final ConfigException ec = refused(keys("ec.pem", "pem", null));

        final ConfigException twice = refused(keys("cas", "pem", null).replace("keys:", "trust:"));

        assertEquals(List.of("8:16 vaults.server.options.trust.store: '" + stores.path("cas/ca.crt") + "' and '"
            + stores.path("cas/CA.pem") + "' both give the alias 'ca': rename one"), errors(twice));
        assertEquals(List.of("8:16 vaults.server.options.keys.store: '" + stores.path("lonely/server.key")
            + "' has no certificate: '" + stores.path("lonely/server.crt") + "' is missing"), errors(lonely));
        assertEquals(List.of("8:16 vaults.server.options.keys.store: '" + stores.path("ec.pem") + "' holds a 'EC PRIVATE KEY'"
            + " block: convert it to PKCS#8 with 'openssl pkcs8 -topk8 -v2 aes-256-cbc' (or -nocrypt)"), errors(ec));
    }

    @Test
    void shouldCheckOptionsWithTheSchema()
    {
        final ConfigException ex = refused(TestVaults.filesystem("example", "server", """
            keys:
              store: server.p12
              type: jceks
              alias: localhost
            trust:
              type: pem
            crl: revoked.pem
            """));

        assertEquals(List.of(
            "8:15 vaults.server.options.keys.type: must be one of: pkcs12, jks, pem",
            "9:9 vaults.server.options.keys: unknown property 'alias'",
            "10:7 vaults.server.options.trust: missing required property 'store'",
            "12:7 vaults.server.options: unknown property 'crl'"), errors(ex));
    }

    @Test
    void shouldRefuseAPasswordThatNothingWouldUse()
    {
        final ConfigException ex = refused(TestVaults.filesystem("example", "server", """
            trust:
              store: cas
              type: pem
              password: ${{env.PASSWORD}}
            signers:
              store: cas
              type: pem
              password: ${{env.PASSWORD}}
            """));

        assertEquals(List.of(
            "9:19 vaults.server.options.trust.password: a pem store's certificates are not encrypted: nothing would use this "
                + "password",
            "13:19 vaults.server.options.signers.password: a pem store's certificates are not encrypted: nothing would use "
                + "this password"), errors(ex));
    }

    // the configuration error that stops reading the zilla.yaml
    private static ConfigException refused(String yaml)
    {
        return assertThrows(ConfigException.class, () -> TestVaults.read(directory, yaml));
    }

    /** A zilla.yaml whose vault {@code server} has only {@code keys}: store on line 8, type 9, password 10. */
    private static String keys(String store, String type, String password)
    {
        return """
            name: example
            bindings: {}
            vaults:
              server:
                type: filesystem
                options:
                  keys:
                    store: %s
                    type: %s
            """.formatted(store, type) + (password != null ? "        password: " + password + "\n" : "");
    }

    private static List<String> errors(ConfigException ex)
    {
        return ex.errors().stream().map(error -> place(error) + ": " + error.message()).toList();
    }

    private static List<String> places(ConfigException ex)
    {
        return ex.errors().stream().map(FileSystemVaultErrorsTest::place).toList();
    }

    private static String place(ConfigError error)
    {
        return error.line() + ":" + error.column() + " " + error.path();
    }
}
