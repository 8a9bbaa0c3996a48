/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.stream.KafkaClientGroupTest.pump;
import static io.zilla.bindings.kafka.stream.KafkaClientGroupTest.subscription;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.committed;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.groupBeginEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetCommitBeginEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetCommitDataEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetFetchBeginEx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import io.zilla.bindings.kafka.stream.KafkaClientGroupTest.Member;
import io.zilla.bindings.kafka.test.KafkaGroupStreams.Committed;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A group member whose coordinator connection is lost (the broker stopped and started again on the same ports): the
 * binding finds the coordinator again and rejoins, with a new Flush and a new assignment; the stream is not reset.
 * An OFFSET_COMMIT stream opened before the restart commits again after it.
 * The broker is this test's own, not the shared one.
 */
class KafkaClientGroupRestartTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientGroupRestartTest.class);

    @Test
    void shouldRejoinAfterTheCoordinatorConnectionIsLost() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic("events", 8);
            engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
            final TestClient app = TestBinding.client("app");
            final Member member = new Member(app, app.open(groupBeginEx("restarted", "consumer", "range", 6_000, null,
                subscription("events"))), "events");
            pump(List.of(member), member::assignedInLatest);
            final int joins = member.joins().size();
            final TestStream commit = app.open(offsetCommitBeginEx("simple", "", null, -1, "events"));
            app.send(commit, null, offsetCommitDataEx(0, 3, "before", -1), 0x03);
            commit.await(WAIT, () -> commit.sequence() > 0 && commit.acknowledged() == commit.sequence());
            final long opened = counter(engine.directory(), "kafka_client", "connections.opened");

            kafka.restart();

            // a commit of a group that no member manages, on a stream opened before the restart: sent again until
            // the coordinator is back, then acknowledged
            app.send(commit, null, offsetCommitDataEx(0, 7, "after", -1), 0x03);
            commit.await(WAIT, () -> commit.waiting() == 0 && commit.acknowledged() == commit.sequence());
            assertFalse(commit.reset(), "retried, not reset");
            final TestStream fetch = app.open(offsetFetchBeginEx("simple", "events", 0));
            fetch.await(WAIT, fetch::ended);
            assertEquals(List.of(new Committed(0, 7L, "after")), committed(fetch));

            pump(List.of(member), WAIT, () -> member.joins().size() > joins && member.assignedInLatest());
            assertEquals(8, member.assignment().size(), "all partitions again");
            assertTrue(counter(engine.directory(), "kafka_client", "connections.opened") > opened,
                "a new coordinator connection");
            assertTrue(engine.events().stream().anyMatch(e -> e.event().equals("kafka.group.coordinator.lost")));
            assertFalse(member.stream.reset(), "rejoined, not reset");
            app.end(member.stream);
            member.stream.await(WAIT, member.stream::ended);
        }
    }
}
