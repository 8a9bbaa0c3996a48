/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;

/**
 * Two engines joined in memory, as the binding drives one: wrap what the application gave (or nothing, for the
 * handshake), unwrap what the peer sent, run delegated tasks on the spot. Each side's ciphertext waits in a buffer
 * for the other side, where a test may read or damage it.
 *
 * <p>Buffers hold what was written from 0 to their position (write mode) between steps.
 */
final class EnginePump
{
    private static final int MAX_ROUNDS = 10_000;

    final Side client;
    final Side server;

    EnginePump(SSLEngine client, SSLEngine server, int capacity, boolean direct)
    {
        this.client = new Side("client", client, capacity, direct);
        this.server = new Side("server", server, capacity, direct);
    }

    EnginePump(SSLEngine client, SSLEngine server)
    {
        this(client, server, 64 * 1024, false);
    }

    /** Moves bytes both ways until neither side has anything more to say; the handshake is then done, or failed. */
    void pump() throws SideException
    {
        for (int round = 0; round < MAX_ROUNDS; round++)
        {
            final boolean clientProgress = client.step(server);
            final boolean serverProgress = server.step(client);
            if (!clientProgress && !serverProgress)
            {
                return;
            }
        }
        throw new IllegalStateException("no end after " + MAX_ROUNDS + " rounds");
    }

    void handshake() throws SideException
    {
        client.begin();
        server.begin();
        pump();
        if (client.engine.getHandshakeStatus() != HandshakeStatus.NOT_HANDSHAKING
            || server.engine.getHandshakeStatus() != HandshakeStatus.NOT_HANDSHAKING)
        {
            throw new IllegalStateException("stuck: client " + client.engine.getHandshakeStatus() + ", server "
                + server.engine.getHandshakeStatus());
        }
    }

    /** An exception from one side's engine, named by side. */
    static final class SideException extends SSLException
    {
        private static final long serialVersionUID = 1L;

        final String side;

        SideException(String side, SSLException cause)
        {
            super(side + ": " + cause.getMessage(), cause);
            this.side = side;
        }
    }

    static final class Side
    {
        final String name;
        final SSLEngine engine;
        /** What the application gives to send: filled by the test, read from 0 to its position. */
        ByteBuffer appOut;
        /** What this side's engine wrapped for the peer. */
        final ByteBuffer netOut;
        /** What this side's application received. */
        ByteBuffer appIn;

        Side(String name, SSLEngine engine, int capacity, boolean direct)
        {
            this.name = name;
            this.engine = engine;
            this.appOut = allocate(capacity, direct);
            this.netOut = allocate(capacity + capacity / 8 + 64 * 1024, direct);
            this.appIn = allocate(capacity, direct);
        }

        void begin() throws SideException
        {
            try
            {
                engine.beginHandshake();
            }
            catch (SSLException ex)
            {
                throw new SideException(name, ex);
            }
        }

        /** Wraps what the application gave, then unwraps what the peer sent. */
        boolean step(Side peer) throws SideException
        {
            try
            {
                return wrap() | unwrap(peer.netOut);
            }
            catch (SSLException ex)
            {
                throw new SideException(name, ex);
            }
        }

        /** The bytes the application received so far, the buffer then emptied. */
        byte[] takeReceived()
        {
            appIn.flip();
            final byte[] bytes = new byte[appIn.remaining()];
            appIn.get(bytes);
            appIn.clear();
            return bytes;
        }

        void send(byte[] bytes)
        {
            appOut.put(bytes);
        }

        private boolean wrap() throws SSLException
        {
            boolean progress = false;
            appOut.flip();
            try
            {
                while (true)
                {
                    final SSLEngineResult result = engine.wrap(appOut, netOut);
                    final boolean tasks = runTasks();
                    if (result.getStatus() == Status.BUFFER_OVERFLOW)
                    {
                        throw new IllegalStateException(name + ": no room to wrap into: " + netOut);
                    }
                    if (result.bytesConsumed() == 0 && result.bytesProduced() == 0 && !tasks)
                    {
                        return progress;
                    }
                    progress = true;
                    if (result.getStatus() == Status.CLOSED)
                    {
                        return progress;
                    }
                }
            }
            finally
            {
                appOut.compact();
            }
        }

        private boolean unwrap(ByteBuffer netIn) throws SSLException
        {
            boolean progress = false;
            netIn.flip();
            try
            {
                while (netIn.hasRemaining())
                {
                    final SSLEngineResult result = engine.unwrap(netIn, appIn);
                    final boolean tasks = runTasks();
                    if (result.getStatus() == Status.BUFFER_OVERFLOW)
                    {
                        throw new IllegalStateException(name + ": no room to unwrap into: " + appIn);
                    }
                    if (result.getStatus() == Status.BUFFER_UNDERFLOW
                        || result.bytesConsumed() == 0 && result.bytesProduced() == 0 && !tasks)
                    {
                        return progress;
                    }
                    progress = true;
                    if (result.getStatus() == Status.CLOSED)
                    {
                        return progress;
                    }
                }
                return progress;
            }
            finally
            {
                netIn.compact();
            }
        }

        private boolean runTasks()
        {
            boolean ran = false;
            for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask())
            {
                task.run();
                ran = true;
            }
            return ran;
        }

        private static ByteBuffer allocate(int capacity, boolean direct)
        {
            return direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        }
    }
}
