/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.List;
import java.util.Map;

import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metric;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * A server binding's {@code telemetry.attributes} on one worker: the labels of its {@code http.*} histograms, resolved
 * per request from the request's method and the response's status. Each has a bounded set of values (the methods of
 * RFC 9110 and PATCH, any other as {@code _other}; a status code of 100-599), and a binding has at most
 * {@link #MAX_SETS} label sets per worker, any further one counted under one set whose values are all {@code _other},
 * so that its series stay bounded whatever clients send. A request finds its set's histograms in a primitive map by
 * an int key: nothing is allocated but at a set's first request, when its labels are written once.
 */
public final class HttpAttributes
{
    static final String METHOD = "${http.request.method}";
    static final String STATUS = "${http.response.status}";

    /** The expressions an http binding resolves, for {@link io.zilla.engine.binding.Binding#attributes()}. */
    public static final List<String> EXPRESSIONS = List.of(METHOD, STATUS);

    /** The most label sets of one binding on one worker. */
    static final int MAX_SETS = 64;

    static final String OTHER = "_other";

    private static final String[] METHODS = { "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH" };
    /** {@link #methodIndex} of a method without a label value of its own, or of a request without one. */
    static final int OTHER_METHOD = METHODS.length;
    private static final int OVERFLOW = -1;

    private final BindingMetrics metrics;
    private final String[] names;
    private final boolean[] method;
    private final boolean byMethod;
    private final boolean byStatus;
    private final Int2ObjectHashMap<Histogram[]> sets = new Int2ObjectHashMap<>();

    HttpAttributes(BindingMetrics metrics, Map<String, String> attributes)
    {
        this.metrics = metrics;
        this.names = attributes.keySet().toArray(String[]::new);
        this.method = new boolean[names.length];
        int i = 0;
        for (String expression : attributes.values())
        {
            method[i++] = METHOD.equals(expression);
        }
        this.byMethod = attributes.containsValue(METHOD);
        this.byStatus = attributes.containsValue(STATUS);
    }

    /** The index of a method among those with a label value of their own, or that of {@code _other}. */
    static int methodIndex(DirectBuffer buffer, int offset, int length)
    {
        for (int i = 0; i < METHODS.length; i++)
        {
            if (HttpRequestHead.equalsAscii(buffer, offset, length, METHODS[i]))
            {
                return i;
            }
        }
        return OTHER_METHOD;
    }

    /**
     * The histograms of one request's label set, in the order of {@code declared}: each null where the metric is not
     * selected.
     *
     * @param methodIndex {@link #methodIndex} of the request's method
     * @param status      the response's status code, 100-599, or 0 when the request ended without one
     */
    Histogram[] histograms(int methodIndex, int status, Metric[] declared)
    {
        // what no attribute names is left out of the key, so that one label set has one key
        final int key = (byMethod ? methodIndex : 0) * 1000 + (byStatus ? status : 0);
        Histogram[] histograms = sets.get(key);
        if (histograms == null)
        {
            final boolean full = sets.size() >= MAX_SETS;
            histograms = full ? sets.get(OVERFLOW) : null;
            if (histograms == null)
            {
                histograms = new Histogram[declared.length];
                final String labels = labels(full ? -1 : methodIndex, full ? -1 : status);
                for (int i = 0; i < declared.length; i++)
                {
                    histograms[i] = metrics.histogram(declared[i], labels);
                }
                sets.put(full ? OVERFLOW : key, histograms);
            }
        }
        return histograms;
    }

    private String labels(int methodIndex, int status)
    {
        final StringBuilder labels = new StringBuilder();
        for (int i = 0; i < names.length; i++)
        {
            if (i > 0)
            {
                labels.append(',');
            }
            labels.append(names[i]).append('=');
            if (method[i])
            {
                labels.append(methodIndex >= 0 && methodIndex < METHODS.length ? METHODS[methodIndex] : OTHER);
            }
            else
            {
                // a request that ended before its response began (either side aborted) has no status
                labels.append(status > 0 ? Integer.toString(status) : status == 0 ? "none" : OTHER);
            }
        }
        return labels.toString();
    }
}
