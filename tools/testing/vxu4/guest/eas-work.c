// SPDX-License-Identifier: GPL-2.0
/*
 * eas-work - fixed work and periodic work for the virtual XU4's tests
 *
 *   eas-work now
 *	Print CLOCK_MONOTONIC in ns (busybox's date has no %N).
 *   eas-work [-a START_NS] loops N
 *	Run N iterations of a fixed integer loop (a fixed amount of work, not
 *	of time). Prints "wall_ns=.. runtime_ns=..".
 *   eas-work [-a START_NS] spin MS [FILE...]
 *	Keep the CPU busy for MS ms of wall time. Prints "wall_ns=..
 *	start_ns=.. end_ns=.." (the busy time, and its CLOCK_MONOTONIC
 *	bounds), then for each FILE (e.g. a meter's energy1_input)
 *	" FILE=BEFORE..AFTER:WINDOW_NS", the number it holds just before and
 *	just after the busy time, and the time between the two reads (from
 *	the middle of one to the middle of the other).
 *   eas-work [-a START_NS] periodic PERIOD_US LOOPS SECONDS [EVERY]
 *	Every PERIOD_US, run LOOPS iterations, for SECONDS. Just after every
 *	EVERY-th wakeup (default 1; the same point of the PELT sawtooth each
 *	time) read se.avg.util_avg from /proc/self/sched (reading it is work
 *	too). Over the last 3/4 of the run (PELT has settled after the
 *	first), print its median, mean, min and max, the periods whose work
 *	ran into the next one (overruns), the wakeups over 1 ms late, and the
 *	task's run time over wall time:
 *	"util_avg=.. periods=.. overruns=.. late=.. mean=.. min=.. max=..
 *	busy=..%" (periods: those of the last 3/4).
 *
 * -a START_NS: start at CLOCK_MONOTONIC START_NS (from "eas-work now"),
 * so that tasks started one after the other run their work at once.
 *
 * The times that bound a measurement are read with a system call, not the
 * vDSO: under the virtual XU4's CPU speed emulation a task pays the stall
 * it owes at system call entry, so the time read is the one at which its
 * work, done at its CPU's speed, ends.
 *
 * Exit: 0 ok, 2 bad usage or an unreadable /proc file.
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* The same, by a system call: the task first pays what it owes. */
static uint64_t sys_now_ns(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* Sleep until CLOCK_MONOTONIC @start_ns (0: do not wait). */
static void start_at(uint64_t start_ns)
{
	struct timespec ts = {
		.tv_sec = start_ns / 1000000000ULL,
		.tv_nsec = start_ns % 1000000000ULL,
	};

	if (start_ns)
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
}

static void work(unsigned long loops)
{
	uint32_t x = 1;

	while (loops--)
		x = x * 1103515245U + 12345U;
	/* Keep the result, so the loop is not optimised away. */
	__asm__ __volatile__("" : : "r" (x));
}

/*
 * A field of /proc/self/sched (CONFIG_SCHED_DEBUG), e.g. "se.avg.util_avg"
 * or "se.sum_exec_runtime" (ms, with 6 decimals), or -1.
 */
static double sched_field(const char *name)
{
	FILE *f = fopen("/proc/self/sched", "r");
	size_t len = strlen(name);
	char line[256];
	double v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		if (strncmp(p, name, len) || (p[len] != ' ' && p[len] != ':'))
			continue;
		p = strchr(p, ':');
		if (p && sscanf(p + 1, "%lf", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

/* This task's sum_exec_runtime, ns. */
static long long runtime_ns(void)
{
	double ms = sched_field("se.sum_exec_runtime");

	return ms < 0 ? -1 : (long long)(ms * 1e6);
}

static long read_util(void)
{
	return (long)sched_field("se.avg.util_avg");
}

/* The number in @path, or exit 2. */
static long long read_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v;

	if (!f || fscanf(f, "%lld", &v) != 1) {
		fprintf(stderr, "eas-work: cannot read a number from %s\n", path);
		exit(2);
	}
	fclose(f);
	return v;
}

static unsigned long long arg64(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || end == s) {
		fprintf(stderr, "eas-work: '%s' is not a number\n", s);
		exit(2);
	}
	return v;
}

static unsigned long arg(const char *s)
{
	unsigned long long v = arg64(s);

	if (v > ULONG_MAX) {
		fprintf(stderr, "eas-work: %s is too large\n", s);
		exit(2);
	}
	return v;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int periodic(unsigned long period_us, unsigned long loops,
		    unsigned long seconds, unsigned long every)
{
	unsigned long n = seconds * 1000000UL / period_us, i, counted = 0;
	unsigned long overruns = 0, late = 0;
	long long sum = 0, r0 = 0, t0 = 0;
	long *samples = calloc(n + 1, sizeof(*samples));
	struct timespec next;

	if (!samples) {
		fprintf(stderr, "eas-work: out of memory\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		bool settled = i >= n / 4;
		long u = i % every ? 0 : read_util();

		if (u < 0) {
			fprintf(stderr,
				"eas-work: no se.avg.util_avg in /proc/self/sched: needs CONFIG_SCHED_DEBUG\n");
			return 2;
		}
		if (i == n / 4) {
			r0 = runtime_ns();
			t0 = sys_now_ns();
		}
		if (settled && !(i % every)) {
			sum += u;
			samples[counted++] = u;
		}
		work(loops);
		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		/* The work ran into the next period: it did not fit. */
		if (settled && sys_now_ns() > ts_ns(&next))
			overruns++;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		/* Woken over 1 ms late. */
		if (settled && now_ns() > ts_ns(&next) + 1000000ULL)
			late++;
	}
	qsort(samples, counted, sizeof(*samples), cmp_long);
	printf("util_avg=%ld periods=%lu overruns=%lu late=%lu ", counted ?
	       samples[counted / 2] : -1, n - n / 4, overruns, late);
	printf("mean=%lld min=%ld max=%ld busy=%.1f%%\n",
	       counted ? sum / (long long)counted : -1,
	       counted ? samples[0] : -1, counted ? samples[counted - 1] : -1,
	       100.0 * (runtime_ns() - r0) / (sys_now_ns() - t0));
	free(samples);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t t0, start = 0;
	long long r0;

	if (argc >= 3 && !strcmp(argv[1], "-a")) {
		start = arg64(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%llu\n", (unsigned long long)now_ns());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "loops")) {
		unsigned long n = arg(argv[2]);

		start_at(start);
		r0 = runtime_ns();
		t0 = sys_now_ns();
		work(n);
		t0 = sys_now_ns() - t0;
		printf("wall_ns=%llu runtime_ns=%lld\n", (unsigned long long)t0,
		       runtime_ns() - r0);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "spin")) {
		int i, nfiles = argc - 3;
		long long before[nfiles > 0 ? nfiles : 1];
		uint64_t at[nfiles > 0 ? nfiles : 1];
		uint64_t end, ms = arg(argv[2]);

		start_at(start);
		for (i = 0; i < nfiles; i++) {
			at[i] = sys_now_ns();
			before[i] = read_number(argv[3 + i]);
			at[i] = (at[i] + sys_now_ns()) / 2;
		}
		t0 = sys_now_ns();
		end = t0 + ms * 1000000ULL;
		while (now_ns() < end)
			work(1000);
		end = sys_now_ns();
		printf("wall_ns=%llu start_ns=%llu end_ns=%llu",
		       (unsigned long long)(end - t0), (unsigned long long)t0,
		       (unsigned long long)end);
		for (i = 0; i < nfiles; i++) {
			uint64_t t = sys_now_ns();
			long long after = read_number(argv[3 + i]);

			t = (t + sys_now_ns()) / 2;
			printf(" %s=%lld..%lld:%llu", argv[3 + i], before[i],
			       after, (unsigned long long)(t - at[i]));
		}
		printf("\n");
		return 0;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "periodic")) {
		unsigned long every = argc == 6 ? arg(argv[5]) : 1;

		start_at(start);
		return periodic(arg(argv[2]), arg(argv[3]), arg(argv[4]),
				every ? every : 1);
	}

	fprintf(stderr,
		"usage: eas-work now | [-a START_NS] loops N | [-a START_NS] spin MS [FILE...]\n"
		"       | [-a START_NS] periodic PERIOD_US LOOPS SECONDS [EVERY]\n");
	return 2;
}
