/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

/**
 * How much of each HTTP/2 shape that costs a server far more than it costs the client an http server takes on one
 * connection before it answers GOAWAY ENHANCE_YOUR_CALM and closes it. Engine properties
 * ({@code zilla.binding.http.server.*}, read by {@link io.zilla.bindings.http.HttpBinding}), not zilla.yaml options:
 * they guard the engine, whatever the configuration says. The defaults follow netty's and Envoy's mitigations and
 * leave legitimate clients alone (docs/bindings/http.md, "Abuse limits").
 *
 * @param maxResets              streams reset (by the client while under way, or by us for the client's error) within
 *                               {@code resetsWindow} (CVE-2023-44487, rapid reset)
 * @param resetsWindow           milliseconds in which {@code maxResets} are counted
 * @param maxContinuations       CONTINUATION frames in one header block
 * @param maxEmptyFrames         DATA frames in a row that carry nothing and do not end their stream (CVE-2019-9518)
 * @param maxQueuedControlFrames acknowledgements and resets we owe beyond the network's credit, that is that wait for
 *                               the client to read (PING and SETTINGS floods, CVE-2019-9512 and CVE-2019-9515)
 */
public record Http2FloodLimits(int maxResets, long resetsWindow, int maxContinuations, int maxEmptyFrames,
    int maxQueuedControlFrames)
{
    /** netty's Http2MaxRstFrameDecoder default: 200 per 30 s. */
    public static final int DEFAULT_MAX_RESETS = 200;
    public static final long DEFAULT_RESETS_WINDOW = 30_000;
    /** netty's default for small CONTINUATION frames per block; a block is at most a slot, 4 frames of 16 KiB. */
    public static final int DEFAULT_MAX_CONTINUATIONS = 16;
    /** netty's Http2EmptyDataFrameListener default. */
    public static final int DEFAULT_MAX_EMPTY_FRAMES = 10;
    /** Envoy's max_outbound_control_frames default. */
    public static final int DEFAULT_MAX_QUEUED_CONTROL_FRAMES = 1_000;

    public static final Http2FloodLimits DEFAULTS = new Http2FloodLimits(DEFAULT_MAX_RESETS, DEFAULT_RESETS_WINDOW,
        DEFAULT_MAX_CONTINUATIONS, DEFAULT_MAX_EMPTY_FRAMES, DEFAULT_MAX_QUEUED_CONTROL_FRAMES);
}
