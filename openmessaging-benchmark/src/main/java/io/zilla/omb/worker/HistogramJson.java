/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import org.HdrHistogram.Histogram;

/**
 * A histogram in JSON as OMB's workers send it: HdrHistogram's compressed encoding, as a base64 string. Every count
 * survives the trip, so histograms from several workers add up exactly.
 */
final class HistogramJson
{
    private HistogramJson()
    {
    }

    static final class Writer extends JsonSerializer<Histogram>
    {
        @Override
        public void serialize(Histogram histogram, JsonGenerator json, SerializerProvider provider) throws IOException
        {
            final ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
            final int length = histogram.encodeIntoCompressedByteBuffer(buffer);
            json.writeBinary(buffer.array(), 0, length);
        }
    }

    static final class Reader extends JsonDeserializer<Histogram>
    {
        @Override
        public Histogram deserialize(JsonParser json, DeserializationContext context) throws IOException
        {
            final byte[] bytes = json.getBinaryValue();
            try
            {
                return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), PeriodStats.HIGHEST_MICROS);
            }
            catch (DataFormatException ex)
            {
                throw new IOException("not an HdrHistogram: " + ex.getMessage(), ex);
            }
        }
    }
}
