/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.util.Arrays;

import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;

/** The versions the proxy supports, per api key: a closed range, or none. */
public final class ApiVersionRanges
{
    private static final short NONE = -1;

    private final short[] minVersions = new short[Short.MAX_VALUE + 1];
    private final short[] maxVersions = new short[Short.MAX_VALUE + 1];

    public ApiVersionRanges()
    {
        Arrays.fill(minVersions, NONE);
        Arrays.fill(maxVersions, NONE);
    }

    /** Supports {@code apiKey} from {@code minVersion} to {@code maxVersion}, both included. */
    public ApiVersionRanges supports(
        int apiKey,
        int minVersion,
        int maxVersion)
    {
        if (apiKey < 0 || apiKey > Short.MAX_VALUE || minVersion < 0 || maxVersion < minVersion
            || maxVersion > Short.MAX_VALUE)
        {
            throw new IllegalArgumentException("invalid range " + minVersion + ".." + maxVersion + " for api key " + apiKey);
        }
        minVersions[apiKey] = (short) minVersion;
        maxVersions[apiKey] = (short) maxVersion;
        return this;
    }

    public boolean supports(
        int apiKey)
    {
        return apiKey >= 0 && apiKey <= Short.MAX_VALUE && minVersions[apiKey] != NONE;
    }

    /** The first supported version of a supported api key. */
    public short minVersion(
        int apiKey)
    {
        return minVersions[apiKey];
    }

    /** The last supported version of a supported api key. */
    public short maxVersion(
        int apiKey)
    {
        return maxVersions[apiKey];
    }

    /** These ranges as ApiVersions entries, in api key order. */
    ApiVersionCollection toApiVersions()
    {
        final ApiVersionCollection apiKeys = new ApiVersionCollection();
        for (int apiKey = 0; apiKey < minVersions.length; apiKey++)
        {
            if (minVersions[apiKey] != NONE)
            {
                apiKeys.add(new ApiVersion()
                    .setApiKey((short) apiKey)
                    .setMinVersion(minVersions[apiKey])
                    .setMaxVersion(maxVersions[apiKey]));
            }
        }
        return apiKeys;
    }
}
