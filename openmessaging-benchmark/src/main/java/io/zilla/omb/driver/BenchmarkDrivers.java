/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver;

import java.util.Map;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.InvalidConfigException;
import io.zilla.omb.driver.kafka.KafkaBenchmarkDriver;

/**
 * Creates the driver a driver file names. OMB's own driver class names map to ours, so OMB's driver files run
 * unchanged; any other name is loaded as a class implementing {@link BenchmarkDriver}.
 */
public final class BenchmarkDrivers
{
    private static final Map<String, String> OMB_CLASSES = Map.of(
        "io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver", KafkaBenchmarkDriver.class.getName());

    private BenchmarkDrivers()
    {
    }

    public static BenchmarkDriver create(DriverConfig config) throws Exception
    {
        final String className = OMB_CLASSES.getOrDefault(config.driverClass(), config.driverClass());
        final Class<?> type;
        try
        {
            type = Class.forName(className);
        }
        catch (ClassNotFoundException ex)
        {
            throw new InvalidConfigException(config.name() + ": driverClass: no such class: " + config.driverClass(), ex);
        }
        if (!BenchmarkDriver.class.isAssignableFrom(type))
        {
            throw new InvalidConfigException(config.name() + ": driverClass: " + className + " is not a "
                + BenchmarkDriver.class.getName());
        }
        final BenchmarkDriver driver = (BenchmarkDriver) type.getDeclaredConstructor().newInstance();
        try
        {
            driver.initialize(config);
        }
        catch (Exception ex)
        {
            // what it connected so far (an admin client retrying a broker it cannot reach) goes with it
            driver.close();
            throw ex;
        }
        return driver;
    }
}
