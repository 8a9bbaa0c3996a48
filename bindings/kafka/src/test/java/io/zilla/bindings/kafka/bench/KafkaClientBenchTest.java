/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The kafka client benchmark, very briefly, against the shared broker: it runs, and every record gets there. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientBenchTest
{
    @Test
    void shouldProduceAndFetchThroughZillaAndKafkaClients(EmbeddedKafka kafka) throws Exception
    {
        final List<KafkaClientBench.Run> runs = KafkaClientBench.of("--bootstrap", kafka.bootstrapServers(),
            "--records", "3200", "--sizes", "100", "--rounds", "1", "--warmup-rounds", "0",
            "--timeout", "60").run();

        assertEquals(6, runs.size(), runs.toString());
        for (String phase : List.of(KafkaClientBench.PRODUCE, KafkaClientBench.FETCH, KafkaClientBench.FETCH_PRODUCED))
        {
            for (String target : List.of(KafkaClientBench.ZILLA, KafkaClientBench.CLIENTS))
            {
                final KafkaClientBench.Run run = runs.stream()
                    .filter(r -> r.phase().equals(phase) && r.target().equals(target)).findFirst().orElseThrow();
                assertTrue(run.complete(), run::format);
                assertEquals(3200, run.records(), run::format);
                assertEquals(3200, run.logged(), run::format);
                assertEquals(3200L * 100, run.bytes(), run::format);
                assertTrue(run.recordsPerSecond() > 0, run::format);
                // not asserted: whether a run this brief (a tenth of a second or less) had its 20%..80% allocation
                // window sampled depends on the host's speed, not on the benchmark
            }
        }
    }
}
