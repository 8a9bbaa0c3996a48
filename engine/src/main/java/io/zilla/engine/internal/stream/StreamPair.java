/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.internal.metrics.BindingCounters;

/**
 * The engine's view of one stream, both directions: who opened it, who accepted it, and which directions
 * are still open. The opener receives the reply direction and the initial direction's Window and Reset; the
 * acceptor receives the initial direction and the reply's Window and Reset.
 */
final class StreamPair
{
    static final int INITIAL_CLOSED = 0x01;
    static final int INITIAL_ABRUPT = 0x02;
    static final int REPLY_BEGUN = 0x04;
    static final int REPLY_CLOSED = 0x08;
    static final int OVERLOADED = 0x10;

    /** Bits of {@link #active}: a direction counted in the stream.active.* gauges, until its first close. */
    static final int INITIAL_ACTIVE = 0x01;
    static final int REPLY_ACTIVE = 0x02;

    long initialId;
    long originId;
    long routedId;
    MessageConsumer opener;
    BindingCounters openerCounters;
    BindingCounters acceptorCounters;

    MessageConsumer acceptor;
    int state;
    int active;
    StreamTree tree;

    /** Takes on a new stream: a pair is reused once its stream is forgotten (StreamDispatcher). */
    StreamPair init(long initialId, long originId, long routedId, MessageConsumer opener, BindingCounters openerCounters,
        BindingCounters acceptorCounters)
    {
        this.initialId = initialId;
        this.originId = originId;
        this.routedId = routedId;
        this.opener = opener;
        this.openerCounters = openerCounters;
        this.acceptorCounters = acceptorCounters;
        this.acceptor = null;
        this.state = 0;
        this.active = 0;
        return this;
    }

    /** Lets go of the stream's handlers, so that a pair waiting for reuse keeps no binding's state alive. */
    void clear()
    {
        opener = null;
        acceptor = null;
        openerCounters = null;
        acceptorCounters = null;
        tree = null;
    }

    boolean has(int flags)
    {
        return (state & flags) != 0;
    }

    /**
     * Done when the initial direction is closed and the reply is closed too, or will never come: a reply
     * that had not begun when the initial direction was aborted or reset. (A reply may still begin after the
     * initial direction ended cleanly: a request answered after its body.)
     */
    boolean isDone()
    {
        return has(INITIAL_CLOSED) && (has(REPLY_CLOSED) || !has(REPLY_BEGUN) && has(INITIAL_ABRUPT));
    }
}
