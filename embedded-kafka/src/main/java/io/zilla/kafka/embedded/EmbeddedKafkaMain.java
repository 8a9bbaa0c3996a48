/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import java.util.concurrent.CountDownLatch;

/**
 * Runs an {@link EmbeddedKafka} until SIGTERM or Ctrl-C:
 * {@code java -cp <embedded-kafka and its dependencies> io.zilla.kafka.embedded.EmbeddedKafkaMain [--port 19092]
 * [--controller-port 19093] [--ssl] [--ssl-port 19094]}. Prints {@code bootstrap.servers=127.0.0.1:<port>} once the
 * broker runs, and with {@code --ssl} the SSL listener's address, CA certificate and truststore.
 */
public final class EmbeddedKafkaMain
{
    private EmbeddedKafkaMain()
    {
    }

    public static void main(String... args) throws InterruptedException
    {
        EmbeddedKafka kafka = new EmbeddedKafka();
        boolean ssl = false;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--port":
                    kafka.port(Integer.parseInt(value(args, ++i)));
                    break;
                case "--controller-port":
                    kafka.controllerPort(Integer.parseInt(value(args, ++i)));
                    break;
                case "--ssl":
                    kafka.withSsl();
                    ssl = true;
                    break;
                case "--ssl-port":
                    kafka.withSsl().sslPort(Integer.parseInt(value(args, ++i)));
                    ssl = true;
                    break;
                case "-h":
                case "--help":
                    System.out.println("usage: EmbeddedKafkaMain [--port <broker port>] [--controller-port <port>] [--ssl] "
                        + "[--ssl-port <port>]");
                    return;
                default:
                    System.err.println("unknown option: " + args[i]);
                    System.exit(2);
                    break;
            }
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            kafka.close();
            stopped.countDown();
        }, "embedded-kafka-main-shutdown"));

        kafka.start();
        System.out.println("bootstrap.servers=" + kafka.bootstrapServers());
        if (ssl)
        {
            System.out.println("ssl bootstrap.servers=" + kafka.sslBootstrapServers());
            System.out.println("ssl.truststore.location=" + kafka.truststore());
            System.out.println("ssl.truststore.type=PKCS12");
            System.out.println("ssl.truststore.password=" + kafka.sslPassword());
            System.out.println("CA certificate " + kafka.caCertificate());
        }
        System.out.println("data directory " + kafka.directory() + ", broker log " + kafka.logFile());
        System.out.flush();
        stopped.await();
    }

    private static String value(String[] args, int index)
    {
        if (index >= args.length)
        {
            System.err.println("missing value for " + args[index - 1]);
            System.exit(2);
        }
        return args[index];
    }
}
