// SPDX-License-Identifier: GPL-2.0
/*
 * eas-work - fixed work and periodic work for the virtual XU4's tests
 *
 *   eas-work now
 *	Print CLOCK_MONOTONIC in ns (busybox's date has no %N).
 *   eas-work loops N
 *	Run N iterations of a fixed integer loop (a fixed amount of work, not
 *	of time). Prints "wall_ns=.. runtime_ns=..".
 *   eas-work spin MS
 *	Keep the CPU busy for MS ms of wall time. Prints "wall_ns=..".
 *   eas-work periodic PERIOD_US LOOPS SECONDS
 *	Every PERIOD_US, run LOOPS iterations, for SECONDS. Just after each
 *	wakeup (the same point of the PELT sawtooth every period) read
 *	se.avg.util_avg from /proc/self/sched; print the mean over the last
 *	half of the run as "util_avg=.. periods=.. overruns=..".
 *
 * Exit: 0 ok, 2 bad usage or an unreadable /proc file.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static unsigned long arg(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s) {
		fprintf(stderr, "eas-work: '%s' is not a number\n", s);
		exit(2);
	}
	return v;
}

static int periodic(unsigned long period_us, unsigned long loops,
		    unsigned long seconds)
{
	unsigned long n = seconds * 1000000UL / period_us, i, counted = 0;
	unsigned long overruns = 0;
	struct timespec next;
	long long sum = 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		long u = read_util();

		if (u < 0) {
			fprintf(stderr,
				"eas-work: no se.avg.util_avg in /proc/self/sched: needs CONFIG_SCHED_DEBUG\n");
			return 2;
		}
		if (i >= n / 2) {
			sum += u;
			counted++;
		}
		work(loops);
		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		/* Woken more than 1 ms late: the work did not fit the period. */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (now_ns() > ts_ns(&next) + 1000000ULL)
			overruns++;
	}
	printf("util_avg=%lld periods=%lu overruns=%lu\n",
	       counted ? sum / (long long)counted : -1, n, overruns);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t t0;
	long long r0;

	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%llu\n", (unsigned long long)now_ns());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "loops")) {
		unsigned long n = arg(argv[2]);

		r0 = runtime_ns();
		t0 = now_ns();
		work(n);
		printf("wall_ns=%llu runtime_ns=%lld\n",
		       (unsigned long long)(now_ns() - t0), runtime_ns() - r0);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		uint64_t end;

		t0 = now_ns();
		end = t0 + arg(argv[2]) * 1000000ULL;
		while (now_ns() < end)
			work(1000);
		printf("wall_ns=%llu\n", (unsigned long long)(now_ns() - t0));
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "periodic"))
		return periodic(arg(argv[2]), arg(argv[3]), arg(argv[4]));

	fprintf(stderr,
		"usage: eas-work now | loops N | spin MS | periodic PERIOD_US LOOPS SECONDS\n");
	return 2;
}
