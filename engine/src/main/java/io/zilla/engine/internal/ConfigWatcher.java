/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches a zilla.yaml and hands its new text over when it changes, off the workers. Editors save in several
 * steps (truncate, write, rename), so a change is reported once the file has been quiet for a moment and only
 * when its bytes differ from the last text handed over.
 */
public final class ConfigWatcher implements AutoCloseable
{
    private static final long QUIET_MILLIS = 100;

    private final Path file;
    private final Consumer<String> onChange;
    private final WatchService watcher;
    private final Thread thread;
    private byte[] last;

    public ConfigWatcher(Path file, Consumer<String> onChange) throws IOException
    {
        this.file = file.toAbsolutePath();
        this.onChange = onChange;
        this.last = Files.readAllBytes(this.file);
        this.watcher = FileSystems.getDefault().newWatchService();
        this.file.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
        this.thread = new Thread(this::run, "zilla-config-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close()
    {
        try
        {
            watcher.close();
            thread.join();
        }
        catch (IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void run()
    {
        try
        {
            while (true)
            {
                final WatchKey key = watcher.take();
                boolean changed = concerns(key);
                key.reset();
                // let the writer finish: gather what follows within the quiet period
                WatchKey more;
                while ((more = watcher.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS)) != null)
                {
                    changed |= concerns(more);
                    more.reset();
                }
                if (changed)
                {
                    deliver();
                }
            }
        }
        catch (ClosedWatchServiceException | InterruptedException ex)
        {
            // closed: the engine is stopping
        }
    }

    private boolean concerns(WatchKey key)
    {
        for (WatchEvent<?> event : key.pollEvents())
        {
            if (event.context() instanceof Path changed && changed.getFileName().equals(file.getFileName()))
            {
                return true;
            }
        }
        return false;
    }

    private void deliver()
    {
        try
        {
            final byte[] bytes = Files.readAllBytes(file);
            if (!Arrays.equals(bytes, last))
            {
                last = bytes;
                onChange.accept(new String(bytes, StandardCharsets.UTF_8));
            }
        }
        catch (IOException ex)
        {
            // the file is between writes or gone: the next change will tell
        }
    }
}
