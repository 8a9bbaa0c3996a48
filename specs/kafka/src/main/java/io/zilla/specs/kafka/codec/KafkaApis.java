/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

/**
 * Kafka api keys, and which header each request and response version uses.
 * <p>
 * A request of a flexible version (compact strings, tagged fields) has header v2 (v1 plus tagged fields) and
 * its response header v1 (v0 plus tagged fields); older versions have request header v1 and response header v0.
 * The table holds, per api key, the first flexible version (-1: never flexible), as kafka-clients 4.4 declares
 * them; versions past the newest known stay flexible, as Kafka itself reads them. Keys 4 to 7 (inter-broker,
 * removed in Kafka 4) keep their historical values.
 */
public final class KafkaApis
{
    public static final short PRODUCE = 0;
    public static final short FETCH = 1;
    public static final short LIST_OFFSETS = 2;
    public static final short METADATA = 3;
    public static final short LEADER_AND_ISR = 4;
    public static final short STOP_REPLICA = 5;
    public static final short UPDATE_METADATA = 6;
    public static final short CONTROLLED_SHUTDOWN = 7;
    public static final short OFFSET_COMMIT = 8;
    public static final short OFFSET_FETCH = 9;
    public static final short FIND_COORDINATOR = 10;
    public static final short JOIN_GROUP = 11;
    public static final short HEARTBEAT = 12;
    public static final short LEAVE_GROUP = 13;
    public static final short SYNC_GROUP = 14;
    public static final short DESCRIBE_GROUPS = 15;
    public static final short LIST_GROUPS = 16;
    public static final short SASL_HANDSHAKE = 17;
    public static final short API_VERSIONS = 18;
    public static final short CREATE_TOPICS = 19;
    public static final short DELETE_TOPICS = 20;
    public static final short DELETE_RECORDS = 21;
    public static final short INIT_PRODUCER_ID = 22;
    public static final short OFFSET_FOR_LEADER_EPOCH = 23;
    public static final short ADD_PARTITIONS_TO_TXN = 24;
    public static final short ADD_OFFSETS_TO_TXN = 25;
    public static final short END_TXN = 26;
    public static final short WRITE_TXN_MARKERS = 27;
    public static final short TXN_OFFSET_COMMIT = 28;
    public static final short DESCRIBE_ACLS = 29;
    public static final short CREATE_ACLS = 30;
    public static final short DELETE_ACLS = 31;
    public static final short DESCRIBE_CONFIGS = 32;
    public static final short ALTER_CONFIGS = 33;
    public static final short ALTER_REPLICA_LOG_DIRS = 34;
    public static final short DESCRIBE_LOG_DIRS = 35;
    public static final short SASL_AUTHENTICATE = 36;
    public static final short CREATE_PARTITIONS = 37;
    public static final short CREATE_DELEGATION_TOKEN = 38;
    public static final short RENEW_DELEGATION_TOKEN = 39;
    public static final short EXPIRE_DELEGATION_TOKEN = 40;
    public static final short DESCRIBE_DELEGATION_TOKEN = 41;
    public static final short DELETE_GROUPS = 42;
    public static final short ELECT_LEADERS = 43;
    public static final short INCREMENTAL_ALTER_CONFIGS = 44;
    public static final short ALTER_PARTITION_REASSIGNMENTS = 45;
    public static final short LIST_PARTITION_REASSIGNMENTS = 46;
    public static final short OFFSET_DELETE = 47;
    public static final short DESCRIBE_CLIENT_QUOTAS = 48;
    public static final short ALTER_CLIENT_QUOTAS = 49;
    public static final short DESCRIBE_USER_SCRAM_CREDENTIALS = 50;
    public static final short ALTER_USER_SCRAM_CREDENTIALS = 51;
    public static final short VOTE = 52;
    public static final short BEGIN_QUORUM_EPOCH = 53;
    public static final short END_QUORUM_EPOCH = 54;
    public static final short DESCRIBE_QUORUM = 55;
    public static final short ALTER_PARTITION = 56;
    public static final short UPDATE_FEATURES = 57;
    public static final short ENVELOPE = 58;
    public static final short FETCH_SNAPSHOT = 59;
    public static final short DESCRIBE_CLUSTER = 60;
    public static final short DESCRIBE_PRODUCERS = 61;
    public static final short BROKER_REGISTRATION = 62;
    public static final short BROKER_HEARTBEAT = 63;
    public static final short UNREGISTER_BROKER = 64;
    public static final short DESCRIBE_TRANSACTIONS = 65;
    public static final short LIST_TRANSACTIONS = 66;
    public static final short ALLOCATE_PRODUCER_IDS = 67;
    public static final short CONSUMER_GROUP_HEARTBEAT = 68;
    public static final short CONSUMER_GROUP_DESCRIBE = 69;
    public static final short CONTROLLER_REGISTRATION = 70;
    public static final short GET_TELEMETRY_SUBSCRIPTIONS = 71;
    public static final short PUSH_TELEMETRY = 72;
    public static final short ASSIGN_REPLICAS_TO_DIRS = 73;
    public static final short LIST_CONFIG_RESOURCES = 74;
    public static final short DESCRIBE_TOPIC_PARTITIONS = 75;
    public static final short SHARE_GROUP_HEARTBEAT = 76;
    public static final short SHARE_GROUP_DESCRIBE = 77;
    public static final short SHARE_FETCH = 78;
    public static final short SHARE_ACKNOWLEDGE = 79;
    public static final short ADD_RAFT_VOTER = 80;
    public static final short REMOVE_RAFT_VOTER = 81;
    public static final short UPDATE_RAFT_VOTER = 82;
    public static final short INITIALIZE_SHARE_GROUP_STATE = 83;
    public static final short READ_SHARE_GROUP_STATE = 84;
    public static final short WRITE_SHARE_GROUP_STATE = 85;
    public static final short DELETE_SHARE_GROUP_STATE = 86;
    public static final short READ_SHARE_GROUP_STATE_SUMMARY = 87;
    public static final short STREAMS_GROUP_HEARTBEAT = 88;
    public static final short STREAMS_GROUP_DESCRIBE = 89;
    public static final short DESCRIBE_SHARE_GROUP_OFFSETS = 90;
    public static final short ALTER_SHARE_GROUP_OFFSETS = 91;
    public static final short DELETE_SHARE_GROUP_OFFSETS = 92;
    public static final short STREAMS_GROUP_TOPOLOGY_DESCRIPTION_UPDATE = 93;
    public static final short UNREGISTER_CONTROLLER = 94;
    private static final short[] FIRST_FLEXIBLE_VERSION =
    {
        9, // PRODUCE
        12, // FETCH
        6, // LIST_OFFSETS
        9, // METADATA
        4, // LEADER_AND_ISR
        2, // STOP_REPLICA
        6, // UPDATE_METADATA
        3, // CONTROLLED_SHUTDOWN
        8, // OFFSET_COMMIT
        6, // OFFSET_FETCH
        3, // FIND_COORDINATOR
        6, // JOIN_GROUP
        4, // HEARTBEAT
        4, // LEAVE_GROUP
        4, // SYNC_GROUP
        5, // DESCRIBE_GROUPS
        3, // LIST_GROUPS
        -1, // SASL_HANDSHAKE
        3, // API_VERSIONS
        5, // CREATE_TOPICS
        4, // DELETE_TOPICS
        2, // DELETE_RECORDS
        2, // INIT_PRODUCER_ID
        4, // OFFSET_FOR_LEADER_EPOCH
        3, // ADD_PARTITIONS_TO_TXN
        3, // ADD_OFFSETS_TO_TXN
        3, // END_TXN
        0, // WRITE_TXN_MARKERS
        3, // TXN_OFFSET_COMMIT
        2, // DESCRIBE_ACLS
        2, // CREATE_ACLS
        2, // DELETE_ACLS
        4, // DESCRIBE_CONFIGS
        2, // ALTER_CONFIGS
        2, // ALTER_REPLICA_LOG_DIRS
        2, // DESCRIBE_LOG_DIRS
        2, // SASL_AUTHENTICATE
        2, // CREATE_PARTITIONS
        2, // CREATE_DELEGATION_TOKEN
        2, // RENEW_DELEGATION_TOKEN
        2, // EXPIRE_DELEGATION_TOKEN
        2, // DESCRIBE_DELEGATION_TOKEN
        2, // DELETE_GROUPS
        2, // ELECT_LEADERS
        1, // INCREMENTAL_ALTER_CONFIGS
        0, // ALTER_PARTITION_REASSIGNMENTS
        0, // LIST_PARTITION_REASSIGNMENTS
        -1, // OFFSET_DELETE
        1, // DESCRIBE_CLIENT_QUOTAS
        1, // ALTER_CLIENT_QUOTAS
        0, // DESCRIBE_USER_SCRAM_CREDENTIALS
        0, // ALTER_USER_SCRAM_CREDENTIALS
        0, // VOTE
        1, // BEGIN_QUORUM_EPOCH
        1, // END_QUORUM_EPOCH
        0, // DESCRIBE_QUORUM
        0, // ALTER_PARTITION
        0, // UPDATE_FEATURES
        0, // ENVELOPE
        0, // FETCH_SNAPSHOT
        0, // DESCRIBE_CLUSTER
        0, // DESCRIBE_PRODUCERS
        0, // BROKER_REGISTRATION
        0, // BROKER_HEARTBEAT
        0, // UNREGISTER_BROKER
        0, // DESCRIBE_TRANSACTIONS
        0, // LIST_TRANSACTIONS
        0, // ALLOCATE_PRODUCER_IDS
        0, // CONSUMER_GROUP_HEARTBEAT
        0, // CONSUMER_GROUP_DESCRIBE
        0, // CONTROLLER_REGISTRATION
        0, // GET_TELEMETRY_SUBSCRIPTIONS
        0, // PUSH_TELEMETRY
        0, // ASSIGN_REPLICAS_TO_DIRS
        0, // LIST_CONFIG_RESOURCES
        0, // DESCRIBE_TOPIC_PARTITIONS
        0, // SHARE_GROUP_HEARTBEAT
        0, // SHARE_GROUP_DESCRIBE
        0, // SHARE_FETCH
        0, // SHARE_ACKNOWLEDGE
        0, // ADD_RAFT_VOTER
        0, // REMOVE_RAFT_VOTER
        0, // UPDATE_RAFT_VOTER
        0, // INITIALIZE_SHARE_GROUP_STATE
        0, // READ_SHARE_GROUP_STATE
        0, // WRITE_SHARE_GROUP_STATE
        0, // DELETE_SHARE_GROUP_STATE
        0, // READ_SHARE_GROUP_STATE_SUMMARY
        0, // STREAMS_GROUP_HEARTBEAT
        0, // STREAMS_GROUP_DESCRIBE
        0, // DESCRIBE_SHARE_GROUP_OFFSETS
        0, // ALTER_SHARE_GROUP_OFFSETS
        0, // DELETE_SHARE_GROUP_OFFSETS
        0, // STREAMS_GROUP_TOPOLOGY_DESCRIPTION_UPDATE
        0, // UNREGISTER_CONTROLLER
    };

    private KafkaApis()
    {
    }

    /** Whether this proxy knows the api key at all: an unknown key's header version cannot be known. */
    public static boolean isKnown(
        int apiKey)
    {
        return apiKey >= 0 && apiKey < FIRST_FLEXIBLE_VERSION.length;
    }

    /** The first flexible version of a known api key, or -1 when it has none. */
    public static int firstFlexibleVersion(
        int apiKey)
    {
        return FIRST_FLEXIBLE_VERSION[apiKey];
    }

    /** Whether this version of a known api key is flexible (compact strings and tagged fields). */
    public static boolean isFlexible(
        int apiKey,
        int apiVersion)
    {
        final int first = FIRST_FLEXIBLE_VERSION[apiKey];
        return first != -1 && apiVersion >= first;
    }

    /** The request header version (0, 1 or 2) of a known api key's version. */
    public static int requestHeaderVersion(
        int apiKey,
        int apiVersion)
    {
        final int version;
        if (apiKey == CONTROLLED_SHUTDOWN && apiVersion == 0)
        {
            version = 0;
        }
        else
        {
            version = isFlexible(apiKey, apiVersion) ? 2 : 1;
        }
        return version;
    }

    /** The response header version (0 or 1) of a known api key's version. */
    public static int responseHeaderVersion(
        int apiKey,
        int apiVersion)
    {
        // ApiVersions responds with header v0 whatever the version, so that a client can always read it (KIP-511)
        return apiKey != API_VERSIONS && isFlexible(apiKey, apiVersion) ? 1 : 0;
    }
}
