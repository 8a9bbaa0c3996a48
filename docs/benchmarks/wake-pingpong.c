/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 *
 * What a blocking wake-up costs on this machine, without Java, Kafka or zilla: two threads pinned to given cpus
 * pass one byte back and forth over two pipes, each blocked in read() until the other writes, and the round trip
 * is timed. With a pause between round trips the cpus go idle first, as between a producer's batches.
 *
 *   gcc -O2 -pthread -o /tmp/wake-pingpong docs/benchmarks/wake-pingpong.c
 *   /tmp/wake-pingpong <cpu of the timer> <cpu of the echo> <round trips> <pause in µs>
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int there[2];
static int back[2];
static int echoCpu;
static int roundTrips;

static void pin(int cpu)
{
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
}

static void *echo(void *unused)
{
    pin(echoCpu);
    char byte;
    for (int i = 0; i < roundTrips && read(there[0], &byte, 1) == 1; i++)
    {
        if (write(back[1], &byte, 1) != 1)
        {
            break;
        }
    }
    return NULL;
}

static long nanos(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000L + now.tv_nsec;
}

static int ascending(const void *a, const void *b)
{
    const long x = *(const long *) a;
    const long y = *(const long *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 5)
    {
        fprintf(stderr, "usage: %s <timer cpu> <echo cpu> <round trips> <pause µs>\n", argv[0]);
        return 2;
    }
    const int timerCpu = atoi(argv[1]);
    echoCpu = atoi(argv[2]);
    roundTrips = atoi(argv[3]);
    const long pauseMicros = atol(argv[4]);
    if (pipe(there) != 0 || pipe(back) != 0)
    {
        perror("pipe");
        return 1;
    }
    pthread_t echoThread;
    pthread_create(&echoThread, NULL, echo, NULL);
    pin(timerCpu);
    long *times = malloc(roundTrips * sizeof(long));
    char byte = 'x';
    for (int i = 0; i < roundTrips; i++)
    {
        if (pauseMicros > 0)
        {
            const struct timespec pause = { pauseMicros / 1000000, pauseMicros % 1000000 * 1000 };
            nanosleep(&pause, NULL);
        }
        const long start = nanos();
        if (write(there[1], &byte, 1) != 1 || read(back[0], &byte, 1) != 1)
        {
            perror("pipe");
            return 1;
        }
        times[i] = nanos() - start;
    }
    pthread_join(echoThread, NULL);
    qsort(times, roundTrips, sizeof(long), ascending);
    printf("cpus %d and %d, pause %ld µs: round trip p50 %.1f p90 %.1f p99 %.1f µs\n", timerCpu, echoCpu, pauseMicros,
        times[roundTrips / 2] / 1e3, times[roundTrips * 9 / 10] / 1e3, times[roundTrips * 99 / 100] / 1e3);
    free(times);
    return 0;
}
