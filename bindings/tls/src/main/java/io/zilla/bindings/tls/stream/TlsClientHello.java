/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads the ClientHello at the start of a TLS connection without decrypting anything (RFC 8446 4.1.2, RFC 5246
 * 7.4.1.2): the records that carry it, its fixed fields, and of its extensions only server_name (RFC 6066 3) and
 * application_layer_protocol_negotiation (RFC 7301 3.1).
 * <p>
 * A ClientHello may be split over several records, and the records over several Data frames, so {@link #scan}
 * is given every byte held so far and starts again from the first: the handshake message is gathered into one
 * reused buffer (the record headers interleave it), then read. A ClientHello is at most {@link #MAX_HANDSHAKE}
 * bytes, and the caller scans again only once {@link #needed()} bytes are there, so a hello costs a scan per
 * record. One instance serves a whole worker.
 */
final class TlsClientHello
{
    /** Not enough bytes yet. */
    static final int INCOMPLETE = 0;

    /** A whole ClientHello was read: {@link #serverName()} and {@link #protocols()} hold what it said. */
    static final int COMPLETE = 1;

    /** The first record is not a handshake record: not TLS, or not the start of a connection. */
    static final int NOT_HANDSHAKE = 2;

    /** A record or field length or version that a ClientHello cannot have. */
    static final int MALFORMED = 3;

    /** A handshake message larger than {@link #MAX_HANDSHAKE}. */
    static final int TOO_LARGE = 4;

    /** The alert descriptions (RFC 8446 6) a proxy or a server refuses a first flight with. */
    static final int ALERT_UNEXPECTED_MESSAGE = 10;
    static final int ALERT_HANDSHAKE_FAILURE = 40;
    static final int ALERT_DECODE_ERROR = 50;
    static final int ALERT_UNRECOGNIZED_NAME = 112;

    /** The largest ClientHello accepted, header included: 16 KiB, the most one plaintext record may carry. */
    static final int MAX_HANDSHAKE = 16 * 1024;

    static final int RECORD_HEADER = 5;

    private static final int CONTENT_HANDSHAKE = 22;
    private static final int HANDSHAKE_CLIENT_HELLO = 1;
    private static final int HANDSHAKE_HEADER = 4;
    private static final int MAX_RECORD = 1 << 14;
    private static final int RANDOM = 32;
    private static final int MAX_SESSION_ID = 32;
    private static final int EXTENSION_SERVER_NAME = 0;
    private static final int EXTENSION_ALPN = 16;
    private static final int NAME_TYPE_HOST_NAME = 0;

    private final MutableDirectBuffer handshake = new UnsafeBuffer(new byte[MAX_HANDSHAKE]);
    private final List<String> protocols = new ArrayList<>();

    private String serverName;
    private String reason;
    private int needed;

    /**
     * Scans the bytes a connection has sent so far, from its first.
     *
     * @return {@link #INCOMPLETE}, {@link #COMPLETE} or the reason it can never be a ClientHello
     */
    int scan(DirectBuffer buffer, int offset, int limit)
    {
        serverName = null;
        protocols.clear();
        reason = null;

        int gathered = 0;
        int progress = offset;
        int status = INCOMPLETE;
        needed = 0;
        if (progress < limit && (buffer.getByte(progress) & 0xff) != CONTENT_HANDSHAKE)
        {
            status = refuse(NOT_HANDSHAKE, "not a TLS handshake record (content type "
                + (buffer.getByte(progress) & 0xff) + ")");
        }
        while (status == INCOMPLETE && limit - progress >= RECORD_HEADER)
        {
            final int type = buffer.getByte(progress) & 0xff;
            final int major = buffer.getByte(progress + 1) & 0xff;
            final int length = buffer.getShort(progress + 3, BIG_ENDIAN) & 0xffff;
            if (type != CONTENT_HANDSHAKE)
            {
                status = refuse(NOT_HANDSHAKE, "a record of content type " + type + " inside the ClientHello");
            }
            else if (major != 3)
            {
                status = refuse(MALFORMED, "record version " + major + "." + (buffer.getByte(progress + 2) & 0xff));
            }
            else if (length == 0 || length > MAX_RECORD)
            {
                status = refuse(MALFORMED, "record length " + length);
            }
            else
            {
                final int available = Math.min(length, limit - progress - RECORD_HEADER);
                final int copied = Math.min(available, handshake.capacity() - gathered);
                handshake.putBytes(gathered, buffer, progress + RECORD_HEADER, copied);
                gathered += copied;
                status = examine(gathered);
                if (status == INCOMPLETE && copied < available)
                {
                    status = refuse(TOO_LARGE, "ClientHello larger than " + MAX_HANDSHAKE + " bytes");
                }
                if (available < length)
                {
                    needed = progress - offset + RECORD_HEADER + length;
                    progress = limit;
                }
                else
                {
                    progress += RECORD_HEADER + length;
                }
            }
        }
        if (status == INCOMPLETE && needed == 0)
        {
            needed = progress - offset + RECORD_HEADER;
        }
        return status;
    }

    /**
     * After {@link #INCOMPLETE}: how many bytes, from the first, the next scan needs to get further (the end of the
     * record being read, or of the next record header). Scanning again with fewer would only repeat this one, so a
     * ClientHello that arrives a byte per Data frame is scanned once per record, not once per byte.
     */
    int needed()
    {
        return needed;
    }

    /** The host_name of the server_name extension, or null. */
    String serverName()
    {
        return serverName;
    }

    /** The protocols the ALPN extension offers, in the client's order; empty when there is none. Reused. */
    List<String> protocols()
    {
        return protocols;
    }

    /** Why the last scan refused the bytes, for the event. */
    String reason()
    {
        return reason;
    }

    /** One TLS alert record: a fatal {@code description} (RFC 8446 6), for a peer whose hello is refused. */
    static int alert(MutableDirectBuffer buffer, int offset, int description)
    {
        buffer.putByte(offset, (byte) 21);
        buffer.putByte(offset + 1, (byte) 3);
        buffer.putByte(offset + 2, (byte) 3);
        buffer.putShort(offset + 3, (short) 2, BIG_ENDIAN);
        buffer.putByte(offset + 5, (byte) 2);
        buffer.putByte(offset + 6, (byte) description);
        return RECORD_HEADER + 2;
    }

    // the gathered handshake bytes so far: is the message a ClientHello, is it whole, and what does it say
    private int examine(int gathered)
    {
        int status = INCOMPLETE;
        if (gathered >= HANDSHAKE_HEADER)
        {
            final int type = handshake.getByte(0) & 0xff;
            final int length = (handshake.getByte(1) & 0xff) << 16 | (handshake.getShort(2, BIG_ENDIAN) & 0xffff);
            if (type != HANDSHAKE_CLIENT_HELLO)
            {
                status = refuse(MALFORMED, "handshake message type " + type + ", not a ClientHello");
            }
            else if (HANDSHAKE_HEADER + length > MAX_HANDSHAKE)
            {
                status = refuse(TOO_LARGE, "ClientHello of " + length + " bytes, more than " + MAX_HANDSHAKE);
            }
            else if (gathered >= HANDSHAKE_HEADER + length)
            {
                status = read(HANDSHAKE_HEADER, HANDSHAKE_HEADER + length);
            }
        }
        return status;
    }

    private int read(int offset, int limit)
    {
        int progress = offset + 2 + RANDOM;
        int status = COMPLETE;
        final int sessionId = progress < limit ? handshake.getByte(progress) & 0xff : -1;
        progress += 1 + sessionId;
        final int cipherSuites = progress + 2 <= limit ? handshake.getShort(progress, BIG_ENDIAN) & 0xffff : -1;
        progress += 2 + cipherSuites;
        final int compressions = progress < limit ? handshake.getByte(progress) & 0xff : -1;
        progress += 1 + compressions;
        if (sessionId < 0 || sessionId > MAX_SESSION_ID || cipherSuites < 2 || (cipherSuites & 1) != 0
            || compressions < 1 || progress > limit)
        {
            status = refuse(MALFORMED, "ClientHello fields overrun it");
        }
        else if (progress < limit)
        {
            status = readExtensions(progress, limit);
        }
        return status;
    }

    private int readExtensions(int offset, int limit)
    {
        int status = COMPLETE;
        int progress = offset + 2;
        if (progress > limit || progress + (handshake.getShort(offset, BIG_ENDIAN) & 0xffff) != limit)
        {
            status = refuse(MALFORMED, "extensions length does not match the ClientHello");
        }
        while (status == COMPLETE && progress < limit)
        {
            if (progress + 4 > limit)
            {
                status = refuse(MALFORMED, "truncated extension header");
                break;
            }
            final int type = handshake.getShort(progress, BIG_ENDIAN) & 0xffff;
            final int length = handshake.getShort(progress + 2, BIG_ENDIAN) & 0xffff;
            final int start = progress + 4;
            final int end = start + length;
            if (end > limit)
            {
                status = refuse(MALFORMED, "extension " + type + " overruns the ClientHello");
            }
            else if (type == EXTENSION_SERVER_NAME)
            {
                status = readServerName(start, end);
            }
            else if (type == EXTENSION_ALPN)
            {
                status = readProtocols(start, end);
            }
            progress = end;
        }
        return status;
    }

    private int readServerName(int offset, int limit)
    {
        int status = COMPLETE;
        int progress = offset + 2;
        if (progress > limit || progress + (handshake.getShort(offset, BIG_ENDIAN) & 0xffff) != limit)
        {
            status = refuse(MALFORMED, "server_name list length does not match its extension");
        }
        while (status == COMPLETE && progress + 3 <= limit)
        {
            final int nameType = handshake.getByte(progress) & 0xff;
            final int length = handshake.getShort(progress + 1, BIG_ENDIAN) & 0xffff;
            progress += 3;
            if (length == 0 || progress + length > limit)
            {
                status = refuse(MALFORMED, "server_name entry overruns its list");
            }
            else if (nameType == NAME_TYPE_HOST_NAME && serverName == null)
            {
                serverName = handshake.getStringWithoutLengthAscii(progress, length);
            }
            progress += length;
        }
        if (status == COMPLETE && progress != limit)
        {
            status = refuse(MALFORMED, "server_name entry overruns its list");
        }
        return status;
    }

    private int readProtocols(int offset, int limit)
    {
        int status = COMPLETE;
        int progress = offset + 2;
        if (progress > limit || progress + (handshake.getShort(offset, BIG_ENDIAN) & 0xffff) != limit || progress == limit)
        {
            status = refuse(MALFORMED, "ALPN list length does not match its extension");
        }
        while (status == COMPLETE && progress < limit)
        {
            final int length = handshake.getByte(progress) & 0xff;
            progress++;
            if (length == 0 || progress + length > limit)
            {
                status = refuse(MALFORMED, "ALPN protocol overruns its list");
            }
            else
            {
                final byte[] name = new byte[length];
                handshake.getBytes(progress, name);
                protocols.add(new String(name, StandardCharsets.US_ASCII));
            }
            progress += length;
        }
        return status;
    }

    private int refuse(int status, String why)
    {
        reason = why;
        return status;
    }

    /**
     * The alert that refuses a first flight {@link #scan} judged {@link #NOT_HANDSHAKE}, {@link #MALFORMED} or
     * {@link #TOO_LARGE}.
     */
    static int alertFor(int status)
    {
        return switch (status)
        {
            case NOT_HANDSHAKE -> ALERT_UNEXPECTED_MESSAGE;
            case MALFORMED -> ALERT_DECODE_ERROR;
            default -> ALERT_HANDSHAKE_FAILURE;
        };
    }
}
