/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.engine.binding.signal.Signaler.NO_CANCEL_ID;

import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One TLS connection driven by an {@link SSLEngine}, between the stream that carries its records ({@code net}: the
 * tcp side) and the stream that carries its plaintext ({@code app}); kind server and kind client differ only in
 * which of the two they accepted and in what happens around the handshake ({@link TlsServerFactory},
 * {@link TlsClientFactory}).
 * <p>
 * Records from the net wait in a buffer slot until whole; each is unwrapped only when the app's credit can take its
 * plaintext (never more than the record's length), so what the app cannot take yet stays encrypted in the slot and
 * the net's credit is the room left there. Plaintext from the app is wrapped at once: the app's credit mirrors the
 * net's, and the padding of its Window covers the records' framing and tags, so the records always fit; handshake
 * and close records that the net's credit cannot take wait in a second slot. Delegated tasks run on the binding's
 * executor, never on the worker, and come back as a signal.
 * <p>
 * Engines other than the JDK's (OpenSSL's, {@code zilla.binding.tls.provider}) differ in when they tell things: they
 * may end their handshake without a FINISHED result, decrypt application data in the same unwrap, notice that the
 * handshake ended only when asked again, and ask for a wrap only in an unwrap's result; each is handled once, below,
 * for any engine. When the connection closes its engine goes back to its provider, exactly once.
 */
abstract class TlsConnection
{
    static final int SIGNAL_TIMEOUT = 1;
    static final int SIGNAL_TASKS_DONE = 2;

    private static final int RECORD_HEADER = 5;
    private static final int CONTENT_HANDSHAKE = 22;

    // who gives the engine back to the provider when the connection closes while its tasks run: the second of the
    // worker (closed) and the task thread (done), so that it is released exactly once and never while in use
    private static final int TASKS_IDLE = 0;
    private static final int TASKS_RUNNING = 1;
    private static final int TASKS_ORPHANED = 2;
    private static final AtomicIntegerFieldUpdater<TlsConnection> TASKS_STATE =
        AtomicIntegerFieldUpdater.newUpdater(TlsConnection.class, "tasksState");

    final TlsScratch scratch;
    final EngineContext context;
    final BindingConfig binding;
    final TlsHandshakeCounters counters;
    final StreamSide net;
    final StreamSide app;

    SSLEngine engine;
    boolean established;
    boolean failed;

    private final BufferPool bufferPool;
    private long timerId = NO_CANCEL_ID;
    // the worker's view: the engine is the tasks' until their signal is handled (tasksState is the task thread's)
    private boolean tasksRunning;
    private volatile int tasksState;
    // a record was unwrapped during the handshake: poll the engine once when no other is held (pollHandshakeDone)
    private boolean pollDue;
    // an unwrap asked for a wrap: OpenSSL's engines say so in the result only when a record failed (the engine's
    // status stays NOT_HANDSHAKING), then write the alert on the first wrap and throw the failure on the next
    private boolean wrapPending;
    private boolean tls12;
    private boolean inboundDone;
    private boolean netInEnded;
    private boolean netOutEndPending;
    private int packetSize;
    private long handshakeStart;
    private long handshakeStartNanos;

    // records from the net not yet unwrapped: [decodeOffset, decodeLimit) of decodeSlot
    int decodeSlot = BufferPool.NO_SLOT;
    int decodeOffset;
    int decodeLimit;

    // plaintext the app's credit did not take: [plainOffset, plainLimit) of plainSlot (see sendApp)
    private int plainSlot = BufferPool.NO_SLOT;
    private int plainOffset;
    private int plainLimit;

    // records for the net its credit did not take yet
    private int encodeSlot = BufferPool.NO_SLOT;
    private int encodeOffset;
    private int encodeLimit;

    TlsConnection(TlsScratch scratch, BindingConfig binding, TlsHandshakeCounters counters)
    {
        this.scratch = scratch;
        this.context = scratch.context;
        this.binding = binding;
        this.counters = counters;
        this.bufferPool = scratch.bufferPool;
        this.net = new StreamSide(scratch.frames);
        this.app = new StreamSide(scratch.frames);
    }

    /** The net's Begin: a client's connection (server) or the answer of the exit (client). */
    abstract void onNetBegin(BeginFW begin);

    /** The app's Begin: the stream a client opens (client) or the exit's answer (server). */
    abstract void onAppBegin(BeginFW begin);

    /** The handshake is done: open (server) or answer (client) the app's stream. */
    abstract void onHandshakeDone(long traceId);

    /** The handshake failed (the alert, if any, is on its way to the net); tell the app side as the kind does. */
    abstract void onHandshakeFailed(long traceId, String reason);

    /** Both streams are closed: forget the connection. */
    abstract void onClosed();

    /** A frame on the net side's streams. */
    final void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onNetBegin(scratch.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onNetData(scratch.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onNetEnd(scratch.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onNetAbort(scratch.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onNetWindow(scratch.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onNetReset(scratch.resetRO.wrap(buffer, index, index + length));
            case SignalFW.TYPE_ID -> onNetSignal(scratch.signalRO.wrap(buffer, index, index + length));
            default ->
            {
                // flushes and challenges mean nothing here
            }
        }
    }

    /** A frame on the app side's streams (the connection's timers and tasks signal on the net side's). */
    final void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onAppBegin(scratch.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onAppData(scratch.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onAppEnd(scratch.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onAppAbort(scratch.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onAppWindow(scratch.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onAppReset(scratch.resetRO.wrap(buffer, index, index + length));
            default ->
            {
                // flushes, signals and challenges mean nothing here
            }
        }
    }

    /** Bytes arrived from the net while there is no engine yet (the server reads the ClientHello first). */
    void onNetBytesBeforeEngine(long traceId)
    {
    }

    /** The net's credit while there is no engine yet. */
    int netWindowBeforeEngine()
    {
        return bufferPool.slotCapacity();
    }

    final void startEngine(long traceId, SSLEngine engine)
    {
        this.engine = engine;
        this.handshakeStart = System.currentTimeMillis();
        this.handshakeStartNanos = counters.startNanos();
        try
        {
            engine.beginHandshake();
            process(traceId);
        }
        catch (SSLException ex)
        {
            onTlsFailure(traceId, ex);
        }
    }

    final void armTimer(long traceId)
    {
        cancelTimer();
        timerId = context.signaler().signalAt(System.currentTimeMillis() + scratch.timeout, net.originId, net.routedId,
            net.outboundId, traceId, SIGNAL_TIMEOUT, 0);
    }

    final void cancelTimer()
    {
        if (timerId != NO_CANCEL_ID)
        {
            context.signaler().cancel(timerId);
            timerId = NO_CANCEL_ID;
        }
    }

    // ---- frames from the net

    final void onNetData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!net.onInData(data.sequence(), reserved))
        {
            onFault(traceId, "a Data frame beyond the credit given");
            return;
        }
        final OctetsFW payload = data.payload();
        final int length = payload != null ? payload.sizeof() : 0;
        if (failed || netInEnded)
        {
            // after an alert: what the peer still sends is dropped
            doNetWindow(traceId);
        }
        else if (length > 0 && hold(traceId, payload.buffer(), payload.offset(), length))
        {
            if (engine == null)
            {
                onNetBytesBeforeEngine(traceId);
            }
            else
            {
                process(traceId);
            }
            doNetWindow(traceId);
        }
    }

    final void onNetEnd(EndFW end)
    {
        final long traceId = end.traceId();
        net.inClosed = true;
        netInEnded = true;
        if (established && !failed)
        {
            // what is held is still unwrapped as the app's credit allows, then the app's stream ends
            process(traceId);
            endAppWhenDrained(traceId);
        }
        else
        {
            if (!failed)
            {
                onHandshakeEndedEarly(traceId);
            }
            doCloseAll(traceId);
        }
    }

    /** The net ended before the handshake was done. */
    void onHandshakeEndedEarly(long traceId)
    {
        counters.onFailed("the peer closed during the handshake");
        context.event(binding.id(), traceId, "tls.handshake.failed", "bindings." + binding.name()
            + ": the peer closed during the handshake");
        onHandshakeFailed(traceId, "the peer closed during the handshake");
    }

    final void onNetAbort(AbortFW abort)
    {
        final long traceId = abort.traceId();
        net.inClosed = true;
        if (established && !failed)
        {
            app.doOutAbort(traceId);
            checkClosed();
        }
        else
        {
            doCloseAll(traceId);
        }
    }

    final void onNetWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        flushEncode(traceId);
        if (engine != null && !failed)
        {
            process(traceId);
            doAppWindow(traceId);
        }
    }

    final void onNetReset(ResetFW reset)
    {
        final long traceId = reset.traceId();
        net.outClosed = true;
        if (established && !failed)
        {
            app.doInReset(traceId);
            checkClosed();
        }
        else
        {
            doCloseAll(traceId);
        }
    }

    final void onNetSignal(SignalFW signal)
    {
        final long traceId = signal.traceId();
        switch (signal.signalId())
        {
            case SIGNAL_TASKS_DONE ->
            {
                tasksRunning = false;
                if (engine != null && !failed && !net.closed())
                {
                    process(traceId);
                }
            }
            case SIGNAL_TIMEOUT ->
            {
                // only the timer armed last: one that fired before it was replaced may still be on its way
                if (timerId != NO_CANCEL_ID && signal.cancelId() == timerId)
                {
                    timerId = NO_CANCEL_ID;
                    if (!established && !failed)
                    {
                        counters.onTimedOut();
                        context.event(binding.id(), traceId, "tls.handshake.timeout", "bindings." + binding.name()
                            + ": no handshake after " + scratch.timeout + " ms, connection closed");
                        onHandshakeFailed(traceId, "timeout");
                    }
                    doCloseAll(traceId);
                }
            }
            default ->
            {
            }
        }
    }

    // ---- frames from the app

    final void onAppData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!app.onInData(data.sequence(), reserved))
        {
            onFault(traceId, "a Data frame from the app beyond the credit given");
            return;
        }
        final OctetsFW payload = data.payload();
        if (payload != null && payload.sizeof() > 0 && !failed)
        {
            encrypt(traceId, payload.buffer(), payload.offset(), payload.sizeof());
        }
        doAppWindow(traceId);
    }

    final void onAppEnd(EndFW end)
    {
        final long traceId = end.traceId();
        app.inClosed = true;
        closeOutbound(traceId);
        checkClosed();
    }

    final void onAppAbort(AbortFW abort)
    {
        final long traceId = abort.traceId();
        app.inClosed = true;
        net.doOutAbort(traceId);
        releaseEncode();
        checkClosed();
    }

    final void onAppWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        if (engine != null && !failed)
        {
            process(traceId);
            endAppWhenDrained(traceId);
            doNetWindow(traceId);
        }
    }

    final void onAppReset(ResetFW reset)
    {
        final long traceId = reset.traceId();
        app.outClosed = true;
        if (!app.inOpened)
        {
            // the exit refused the stream (or never answered): nothing will come back, close the connection
            doCloseAll(traceId);
        }
        else
        {
            net.doInReset(traceId);
            releaseDecode();
            releasePlain();
            checkClosed();
        }
    }

    // ---- the engine

    /** Drives the engine as far as it goes now: handshake steps, then records as the app's credit allows. */
    final void process(long traceId)
    {
        try
        {
            loop:
            while (engine != null && !tasksRunning && !failed)
            {
                final SSLEngineResult.HandshakeStatus status = wrapPending ? SSLEngineResult.HandshakeStatus.NEED_WRAP
                    : engine.getHandshakeStatus();
                if (!established && status == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING)
                {
                    // an engine may end its handshake without a FINISHED result (OpenSSL's on some paths)
                    onFinished(traceId);
                    continue;
                }
                switch (status)
                {
                    case NEED_TASK ->
                    {
                        runTasks(traceId);
                        break loop;
                    }
                    case NEED_WRAP ->
                    {
                        if (!wrapHandshake(traceId))
                        {
                            break loop;
                        }
                    }
                    default ->
                    {
                        if (!unwrapRecord(traceId))
                        {
                            break loop;
                        }
                    }
                }
            }
        }
        catch (SSLException ex)
        {
            onTlsFailure(traceId, ex);
        }
        if (netInEnded && !tasksRunning)
        {
            endAppWhenDrained(traceId);
        }
    }

    private void runTasks(long traceId)
    {
        tasksRunning = true;
        tasksState = TASKS_RUNNING;
        final SSLEngine engine = this.engine;
        final long originId = net.originId;
        final long routedId = net.routedId;
        final long streamId = net.outboundId;
        try
        {
            // key exchange, signatures, certificate checks: never on the worker
            scratch.executor.execute(() ->
            {
                for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask())
                {
                    task.run();
                }
                if (TASKS_STATE.compareAndSet(this, TASKS_RUNNING, TASKS_IDLE))
                {
                    context.signalNowFromAnyThread(originId, routedId, streamId, traceId, SIGNAL_TASKS_DONE, 0);
                }
                else
                {
                    // the connection closed meanwhile and left the engine to this thread
                    scratch.provider.release(engine);
                }
            });
        }
        catch (RejectedExecutionException ex)
        {
            tasksRunning = false;
            tasksState = TASKS_IDLE;
            onTlsFailure(traceId, new SSLException("no thread for the handshake's tasks", ex));
        }
    }

    private boolean wrapHandshake(long traceId) throws SSLException
    {
        boolean progress = false;
        if (encodeLimit - encodeOffset <= bufferPool.slotCapacity() >> 1)
        {
            final ByteBuffer out = scratch.cipherOut;
            out.clear();
            final SSLEngineResult result = engine.wrap(scratch.empty, out);
            final int produced = result.bytesProduced();
            // after the alert an unwrap asked for, the next wrap throws the failure it was for (or writes nothing)
            wrapPending &= produced > 0;
            if (produced > 0)
            {
                doNetWrite(traceId, scratch.cipherOutBuffer, 0, produced);
            }
            if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.FINISHED)
            {
                onFinished(traceId);
            }
            progress = produced > 0 || result.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NEED_WRAP;
            if (!wrapPending && (result.getStatus() == SSLEngineResult.Status.CLOSED
                || engine != null && engine.isOutboundDone()))
            {
                // a close_notify, or an alert the engine wrote without throwing why
                progress = false;
                endNetWhenFlushed(traceId);
                if (engine != null && !inboundDone && engine.isInboundDone())
                {
                    onEngineClosed(traceId);
                }
            }
        }
        return progress && !failed;
    }

    private boolean unwrapRecord(long traceId) throws SSLException
    {
        if (established && !flushPlain(traceId))
        {
            // plaintext decrypted before still waits for the app's credit: the records wait too, still encrypted
            return false;
        }
        if (inboundDone)
        {
            return false;
        }
        if (decodeSlot == BufferPool.NO_SLOT || !holdsWholeRecord())
        {
            return !established && pollHandshakeDone(traceId);
        }
        final MutableDirectBuffer held = bufferPool.buffer(decodeSlot);
        final int type = held.getByte(decodeOffset) & 0xff;
        final int length = (held.getByte(decodeOffset + 3) & 0xff) << 8 | held.getByte(decodeOffset + 4) & 0xff;
        if (established)
        {
            if (tls12 && type == CONTENT_HANDSHAKE)
            {
                onRenegotiation(traceId);
                return false;
            }
            if (!app.outOpened || app.outCredit() < length)
            {
                // the plaintext waits, still encrypted, until the app can take all of it
                return false;
            }
        }
        final ByteBuffer in = scratch.cipherIn;
        scratch.cipherInBuffer.putBytes(0, held, decodeOffset, RECORD_HEADER + length);
        in.clear().limit(RECORD_HEADER + length);
        final ByteBuffer out = scratch.plainOut;
        out.clear();
        final SSLEngineResult result = engine.unwrap(in, out);
        wrapPending = result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP;
        decodeOffset += result.bytesConsumed();
        pollDue = !established && result.bytesConsumed() > 0;
        final int produced = result.bytesProduced();
        if (produced > 0 && !sendApp(traceId, produced))
        {
            return false;
        }
        if (decodeOffset == decodeLimit)
        {
            releaseDecode();
        }
        if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.FINISHED)
        {
            onFinished(traceId);
        }
        boolean progress = result.bytesConsumed() > 0;
        switch (result.getStatus())
        {
            case CLOSED ->
            {
                // close_notify: the peer sends no more; the app's stream ends once what came before is sent
                inboundDone = true;
                releaseDecode();
                endAppWhenDrained(traceId);
                progress = engine != null && engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP;
            }
            case BUFFER_OVERFLOW -> throw new SSLException("a record larger than " + out.capacity() + " bytes");
            default ->
            {
            }
        }
        return progress;
    }

    /**
     * Decrypted bytes go to the app as far as its credit takes them, after any that wait already; the rest waits in
     * the plain slot. Once established a record is unwrapped only with credit for all of its plaintext, so this is
     * about the handshake's end: the unwrap that ends it (or the poll after it) may decrypt the first application
     * data too (OpenSSL's engines do when it came with the peer's Finished), before the app's stream is open or has
     * credit. False when the connection was closed for want of a slot.
     */
    private boolean sendApp(long traceId, int produced)
    {
        int sent = 0;
        if (plainSlot == BufferPool.NO_SLOT && established && app.outOpened)
        {
            sent = Math.max(Math.min(produced, app.outCredit()), 0);
            if (sent > 0)
            {
                app.doOutData(traceId, scratch.plainOutBuffer, 0, sent);
            }
        }
        return sent == produced || holdPlain(traceId, sent, produced - sent);
    }

    /**
     * Once after each record unwrapped during the handshake, when no other whole one is held: an unwrap of nothing,
     * for engines that notice only then that the record they were given ended the handshake (OpenSSL's server after
     * a TLS 1.3 client's Finished: without it a server-speaks-first protocol would wait for the client's first record,
     * which never comes); the JDK's answers BUFFER_UNDERFLOW. True when it made progress.
     */
    private boolean pollHandshakeDone(long traceId) throws SSLException
    {
        boolean progress = false;
        if (pollDue && engine != null)
        {
            pollDue = false;
            final ByteBuffer out = scratch.plainOut;
            out.clear();
            final SSLEngineResult result = engine.unwrap(scratch.empty, out);
            wrapPending = result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP;
            if (result.bytesProduced() > 0 && !sendApp(traceId, result.bytesProduced()))
            {
                return false;
            }
            progress = result.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NEED_UNWRAP;
            if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.FINISHED)
            {
                onFinished(traceId);
            }
        }
        return progress;
    }

    // the engine closed both ways on its own (a fatal alert it wrote): the connection ends, the app's stream aborted
    private void onEngineClosed(long traceId)
    {
        counters.recordFailed.increment();
        context.event(binding.id(), traceId, "tls.record.failed", "bindings." + binding.name()
            + ": the engine closed the connection with an alert, connection closed");
        inboundDone = true;
        failed = true;
        releaseDecode();
        releasePlain();
        app.doOutAbort(traceId);
        app.doInReset(traceId);
        armTimer(traceId);
        checkClosed();
    }

    // [offset, offset + length) of the plaintext just decrypted waits in the plain slot; false when it cannot
    private boolean holdPlain(long traceId, int offset, int length)
    {
        if (plainSlot == BufferPool.NO_SLOT)
        {
            // (the app's stream may not be open yet: the slot is the net's)
            plainSlot = bufferPool.acquire(net.inboundId);
            plainOffset = 0;
            plainLimit = 0;
            if (plainSlot == BufferPool.NO_SLOT)
            {
                onExhausted(traceId);
                return false;
            }
        }
        final MutableDirectBuffer slot = bufferPool.buffer(plainSlot);
        if (plainLimit + length > slot.capacity())
        {
            onFault(traceId, "decrypted bytes beyond a buffer slot before the app's credit");
            return false;
        }
        slot.putBytes(plainLimit, scratch.plainOutBuffer, offset, length);
        plainLimit += length;
        return true;
    }

    // the held plaintext the app's credit takes now; true when none is left
    private boolean flushPlain(long traceId)
    {
        if (plainSlot != BufferPool.NO_SLOT && established && app.outOpened)
        {
            final int size = Math.min(plainLimit - plainOffset, app.outCredit());
            if (size > 0)
            {
                app.doOutData(traceId, bufferPool.buffer(plainSlot), plainOffset, size);
                plainOffset += size;
            }
            if (plainOffset == plainLimit)
            {
                releasePlain();
            }
        }
        return plainSlot == BufferPool.NO_SLOT;
    }

    private void releasePlain()
    {
        if (plainSlot != BufferPool.NO_SLOT)
        {
            bufferPool.release(plainSlot);
            plainSlot = BufferPool.NO_SLOT;
        }
        plainOffset = 0;
        plainLimit = 0;
    }

    private void onFinished(long traceId)
    {
        if (!established && engine != null)
        {
            established = true;
            cancelTimer();
            final SSLSession session = engine.getSession();
            tls12 = "TLSv1.2".equals(session.getProtocol());
            packetSize = session.getPacketBufferSize();
            counters.onHandshake(handshakeStartNanos);
            if (scratch.provider.resumed(engine, handshakeStart))
            {
                counters.resumed.increment();
            }
            onHandshakeDone(traceId);
        }
    }

    private void encrypt(long traceId, DirectBuffer buffer, int offset, int length)
    {
        final ByteBuffer in = scratch.plainIn;
        final ByteBuffer out = scratch.cipherOut;
        out.clear();
        try
        {
            for (int done = 0; done < length && engine != null; )
            {
                final int chunk = Math.min(length - done, in.capacity());
                scratch.plainInBuffer.putBytes(0, buffer, offset + done, chunk);
                in.clear().limit(chunk);
                while (in.hasRemaining() && engine != null)
                {
                    if (out.remaining() < packetSize)
                    {
                        doNetWrite(traceId, scratch.cipherOutBuffer, 0, out.position());
                        out.clear();
                    }
                    if (engine == null)
                    {
                        break;
                    }
                    final SSLEngineResult result = engine.wrap(in, out);
                    if (result.getStatus() == SSLEngineResult.Status.CLOSED)
                    {
                        in.position(in.limit());
                    }
                }
                done += chunk;
            }
            if (engine != null)
            {
                doNetWrite(traceId, scratch.cipherOutBuffer, 0, out.position());
            }
        }
        catch (SSLException ex)
        {
            onTlsFailure(traceId, ex);
        }
    }

    private void closeOutbound(long traceId)
    {
        if (engine != null && !failed && !tasksRunning)
        {
            engine.closeOutbound();
            try
            {
                drainWrap(traceId);
            }
            catch (SSLException ex)
            {
                // the close_notify could not be written: close anyway
            }
        }
        endNetWhenFlushed(traceId);
    }

    // whatever the engine still has to send: a close_notify, an alert
    private void drainWrap(long traceId) throws SSLException
    {
        final ByteBuffer out = scratch.cipherOut;
        for (int i = 0; i < 4 && engine != null; i++)
        {
            out.clear();
            final SSLEngineResult result = engine.wrap(scratch.empty, out);
            if (result.bytesProduced() > 0)
            {
                doNetWrite(traceId, scratch.cipherOutBuffer, 0, result.bytesProduced());
            }
            if (result.bytesProduced() == 0 || result.getStatus() == SSLEngineResult.Status.CLOSED)
            {
                break;
            }
        }
    }

    private void onRenegotiation(long traceId)
    {
        counters.renegotiationRefused.increment();
        context.event(binding.id(), traceId, "tls.renegotiation.refused", "bindings." + binding.name()
            + ": a TLS 1.2 handshake record after the handshake (renegotiation), connection closed");
        fail(traceId);
    }

    final void onTlsFailure(long traceId, SSLException ex)
    {
        final String reason = reason(ex);
        if (established)
        {
            counters.recordFailed.increment();
            context.event(binding.id(), traceId, "tls.record.failed", "bindings." + binding.name() + ": " + reason
                + ", connection closed");
        }
        else
        {
            counters.onFailed(reason);
            context.event(binding.id(), traceId, "tls.handshake.failed", "bindings." + binding.name() + ": " + reason
                + ", connection closed");
            onHandshakeFailed(traceId, reason);
        }
        fail(traceId);
    }

    /**
     * The messages of the exception and its causes, each not already said: OpenSSL's engines fail with a general
     * message ({@code General OpenSslEngine problem}) whose cause is the real reason (a trust manager's, a host name's).
     */
    private static String reason(Throwable ex)
    {
        final StringBuilder reason = new StringBuilder();
        for (Throwable cause = ex; cause != null && reason.length() < 1024; cause = cause.getCause())
        {
            final String message = cause.getMessage();
            if (message != null && !message.isEmpty() && reason.indexOf(message) == -1)
            {
                if (!reason.isEmpty())
                {
                    reason.append(": ");
                }
                reason.append(message);
            }
            if (cause.getCause() == cause)
            {
                break;
            }
        }
        return !reason.isEmpty() ? reason.toString() : ex.getClass().getSimpleName();
    }

    // the engine's alert (or close_notify) goes to the net, then its stream ends; the app's stream is aborted
    private void fail(long traceId)
    {
        if (!failed)
        {
            failed = true;
            if (engine != null)
            {
                engine.closeOutbound();
                try
                {
                    drainWrap(traceId);
                }
                catch (SSLException ex)
                {
                    // the alert is what was written, if anything
                }
            }
            releaseDecode();
            releasePlain();
            app.doOutAbort(traceId);
            app.doInReset(traceId);
            endNetWhenFlushed(traceId);
            // the peer has as long again to read the alert and close
            armTimer(traceId);
            checkClosed();
        }
    }

    final void onFault(long traceId, String what)
    {
        context.event(binding.id(), traceId, "tls.stream.fault", "bindings." + binding.name() + ": " + what
            + ", connection closed");
        doCloseAll(traceId);
    }

    // ---- the net's direction out: records

    /** Sends records to the net as its credit allows; the rest waits in the encode slot. */
    final void doNetWrite(long traceId, DirectBuffer buffer, int offset, int length)
    {
        int sent = 0;
        if (encodeLimit == encodeOffset)
        {
            sent = sendNet(traceId, buffer, offset, length);
        }
        if (sent < length)
        {
            if (encodeSlot == BufferPool.NO_SLOT)
            {
                encodeSlot = bufferPool.acquire(net.outboundId);
                encodeOffset = 0;
                encodeLimit = 0;
                if (encodeSlot == BufferPool.NO_SLOT)
                {
                    onExhausted(traceId);
                    return;
                }
            }
            final MutableDirectBuffer slot = bufferPool.buffer(encodeSlot);
            if (encodeLimit + length - sent > slot.capacity())
            {
                slot.putBytes(0, slot, encodeOffset, encodeLimit - encodeOffset);
                encodeLimit -= encodeOffset;
                encodeOffset = 0;
            }
            if (encodeLimit + length - sent > slot.capacity())
            {
                onFault(traceId, "records for the peer beyond a buffer slot (it does not read)");
                return;
            }
            slot.putBytes(encodeLimit, buffer, offset + sent, length - sent);
            encodeLimit += length - sent;
        }
    }

    private int sendNet(long traceId, DirectBuffer buffer, int offset, int length)
    {
        int sent = 0;
        final int frameMax = context.writeBuffer().capacity() >> 1;
        while (sent < length)
        {
            final int size = Math.min(Math.min(length - sent, net.outCredit()), frameMax);
            if (size <= 0)
            {
                break;
            }
            net.doOutData(traceId, buffer, offset + sent, size);
            sent += size;
        }
        return sent;
    }

    private void flushEncode(long traceId)
    {
        if (encodeSlot != BufferPool.NO_SLOT)
        {
            encodeOffset += sendNet(traceId, bufferPool.buffer(encodeSlot), encodeOffset, encodeLimit - encodeOffset);
            if (encodeOffset == encodeLimit)
            {
                releaseEncode();
            }
        }
        if (encodeSlot == BufferPool.NO_SLOT && netOutEndPending)
        {
            net.doOutEnd(traceId);
            checkClosed();
        }
    }

    /** Refuses the connection before there is an engine: a plaintext alert, then the net's stream ends. */
    final void refuse(long traceId, DirectBuffer alert, int length)
    {
        failed = true;
        releaseDecode();
        doNetWrite(traceId, alert, 0, length);
        endNetWhenFlushed(traceId);
        // the peer has as long again to read the alert and close
        armTimer(traceId);
        checkClosed();
    }

    final void endNetWhenFlushed(long traceId)
    {
        netOutEndPending = true;
        flushEncode(traceId);
    }

    private void endAppWhenDrained(long traceId)
    {
        if (netInEnded && decodeSlot != BufferPool.NO_SLOT && !holdsWholeRecord())
        {
            // a record cut short by the end of the stream: nothing more will complete it
            releaseDecode();
        }
        if ((inboundDone || netInEnded) && decodeSlot == BufferPool.NO_SLOT && plainSlot == BufferPool.NO_SLOT
            && established && !failed && app.outOpened)
        {
            app.doOutEnd(traceId);
            checkClosed();
        }
    }

    private boolean holdsWholeRecord()
    {
        final MutableDirectBuffer held = bufferPool.buffer(decodeSlot);
        final int available = decodeLimit - decodeOffset;
        return available >= RECORD_HEADER && available >= RECORD_HEADER
            + ((held.getByte(decodeOffset + 3) & 0xff) << 8 | held.getByte(decodeOffset + 4) & 0xff);
    }

    // ---- credit

    /** The net's credit: the room left in the decode slot, returned per half slot. */
    final void doNetWindow(long traceId)
    {
        if (net.inOpened && !net.inClosed)
        {
            final int held = decodeLimit - decodeOffset;
            final long ack = failed ? net.inSeq : net.inSeq - held;
            final int max = engine == null ? netWindowBeforeEngine() : bufferPool.slotCapacity();
            if (ack - net.inAck >= max >> 1 || max != net.inMax || failed && ack != net.inAck)
            {
                net.doInWindow(traceId, ack, max, 0);
            }
        }
    }

    /**
     * The app's credit mirrors the net's: what the app may still send is what the net may still take, less what
     * waits in the encode slot; its padding covers a frame's records (header, nonce, tag each) and the net's own.
     */
    final void doAppWindow(long traceId)
    {
        if (app.inOpened && !app.inClosed && established && !failed)
        {
            final int max = net.outMax;
            final long outstanding = (net.outSeq - net.outAck) + (encodeLimit - encodeOffset);
            final long ack = Math.max(app.inAck, app.inSeq - outstanding);
            final int padding = net.outPad + scratch.framePadding;
            if (ack != app.inAck || max != app.inMax)
            {
                app.doInWindow(traceId, ack, max, padding);
            }
        }
    }

    // ---- closing

    final void doCloseAll(long traceId)
    {
        failed = true;
        app.doOutAbort(traceId);
        app.doInReset(traceId);
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        netOutEndPending = false;
        checkClosed();
    }

    final void checkClosed()
    {
        if (net.closed() && app.closed())
        {
            releaseDecode();
            releasePlain();
            releaseEncode();
            cancelTimer();
            releaseEngine();
            onClosed();
        }
    }

    // the engine goes back to its provider once (OpenSSL's hold native memory); with tasks running it is theirs until
    // they end, and the task thread gives it back if it ends after this. The field is cleared: what is still on the
    // stack (an encrypt loop, a wrap's result handling) sees no engine rather than a released one
    private void releaseEngine()
    {
        final SSLEngine engine = this.engine;
        if (engine != null)
        {
            this.engine = null;
            if (!tasksRunning || !TASKS_STATE.compareAndSet(this, TASKS_RUNNING, TASKS_ORPHANED))
            {
                // no tasks, or they ended and their signal is not handled yet: nobody uses the engine any more
                engine.closeOutbound();
                scratch.provider.release(engine);
            }
        }
    }

    private void onExhausted(long traceId)
    {
        context.event(binding.id(), traceId, "tls.buffers.exhausted", "bindings." + binding.name()
            + ": no buffer slot left, connection closed");
        doCloseAll(traceId);
    }

    /** Holds bytes from the net in the decode slot; false when no slot is left (the connection is then closed). */
    final boolean hold(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (decodeSlot == BufferPool.NO_SLOT)
        {
            decodeSlot = bufferPool.acquire(net.inboundId);
            decodeOffset = 0;
            decodeLimit = 0;
            if (decodeSlot == BufferPool.NO_SLOT)
            {
                onExhausted(traceId);
                return false;
            }
        }
        final MutableDirectBuffer slot = bufferPool.buffer(decodeSlot);
        if (decodeLimit + length > slot.capacity())
        {
            slot.putBytes(0, slot, decodeOffset, decodeLimit - decodeOffset);
            decodeLimit -= decodeOffset;
            decodeOffset = 0;
        }
        if (decodeLimit + length > slot.capacity())
        {
            onFault(traceId, "bytes beyond a buffer slot");
            return false;
        }
        slot.putBytes(decodeLimit, buffer, offset, length);
        decodeLimit += length;
        return true;
    }

    final void releaseDecode()
    {
        if (decodeSlot != BufferPool.NO_SLOT)
        {
            bufferPool.release(decodeSlot);
            decodeSlot = BufferPool.NO_SLOT;
        }
        decodeOffset = 0;
        decodeLimit = 0;
    }

    private void releaseEncode()
    {
        if (encodeSlot != BufferPool.NO_SLOT)
        {
            bufferPool.release(encodeSlot);
            encodeSlot = BufferPool.NO_SLOT;
        }
        encodeOffset = 0;
        encodeLimit = 0;
    }
}
