/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

class KafkaApisTest
{
    @Test
    void shouldAgreeWithKafkaClientsOnEveryHeaderVersion()
    {
        int checked = 0;
        for (ApiKeys apiKey : ApiKeys.values())
        {
            assertTrue(KafkaApis.isKnown(apiKey.id), apiKey.name());
            if (apiKey.latestVersion(true) < 0)
            {
                continue;   // removed from Kafka 4 (inter-broker): kafka-clients no longer knows their versions
            }
            // one version past the newest too: Kafka reads it with the same header as the newest
            for (short version = 0; version <= apiKey.latestVersion(true) + 1; version++)
            {
                final String what = apiKey.name() + " v" + version;
                assertEquals(apiKey.requestHeaderVersion(version), KafkaApis.requestHeaderVersion(apiKey.id, version), what);
                assertEquals(apiKey.responseHeaderVersion(version), KafkaApis.responseHeaderVersion(apiKey.id, version), what);
                checked++;
            }
        }
        assertTrue(checked > 200);
    }

    @Test
    void shouldNameTheApiKeysAsKafkaClientsDoes()
    {
        assertEquals(ApiKeys.PRODUCE.id, KafkaApis.PRODUCE);
        assertEquals(ApiKeys.FETCH.id, KafkaApis.FETCH);
        assertEquals(ApiKeys.METADATA.id, KafkaApis.METADATA);
        assertEquals(ApiKeys.FIND_COORDINATOR.id, KafkaApis.FIND_COORDINATOR);
        assertEquals(ApiKeys.API_VERSIONS.id, KafkaApis.API_VERSIONS);
        assertEquals(ApiKeys.DESCRIBE_CLUSTER.id, KafkaApis.DESCRIBE_CLUSTER);
        assertEquals(ApiKeys.SASL_AUTHENTICATE.id, KafkaApis.SASL_AUTHENTICATE);
    }

    @Test
    void shouldNotKnowApiKeysBeyondTheTable()
    {
        assertFalse(KafkaApis.isKnown(-1));
        assertFalse(KafkaApis.isKnown(1000));
        assertEquals(0, KafkaApis.requestHeaderVersion(KafkaApis.CONTROLLED_SHUTDOWN, 0));
        assertEquals(1, KafkaApis.requestHeaderVersion(KafkaApis.CONTROLLED_SHUTDOWN, 1));
        assertEquals(2, KafkaApis.requestHeaderVersion(KafkaApis.CONTROLLED_SHUTDOWN, 3));
    }
}
