// SPDX-License-Identifier: GPL-2.0
/*
 * eas-work - fixed work and periodic work for the virtual XU4's tests
 *
 *   eas-work now
 *	Print CLOCK_MONOTONIC in ns (busybox's date has no %N).
 *   eas-work [-a START_NS] loops N
 *	Run N iterations of a fixed integer loop (a fixed amount of work, not
 *	of time). Prints "wall_ns=.. runtime_ns=..", and " insns=.." where
 *	the CPU speed emulation's debugfs has the CPU's instruction count
 *	(virt_cpu_speed/cpuN/insns): the instructions its vCPU executed
 *	from the first time read to the last (pin the task: taskset); and
 *	" counted=.." where it has the CPU's class counts (insn_classes):
 *	those of the instructions in the timed window that ran outside the
 *	emulation's own code, the ones it charges as work.
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
 *   eas-work [-v] pelt-step SLEEP_MS RUN_MS DECAY_MS
 *	PELT's step response, on the CPU the task is pinned to. The rise:
 *	sleep SLEEP_MS (util_avg decays to 0), then run for RUN_MS, reading
 *	se.avg.util_avg and se.avg.last_update_time from /proc/self/sched
 *	(the scheduler updates them at wakeup and at each tick). The decay:
 *	cycles of RUN_MS / 2 running, then one sleep (2 ms, then 3/2 as long
 *	each cycle, up to DECAY_MS or util_avg under 256), util_avg read at
 *	its wakeup, once: asleep it only decays, so its fraction left of the
 *	value before the sleep follows one curve. Prints "rise_ms=..
 *	decay_ms=.. u0=.. top=.. rise_samples=.. decay_samples=..
 *	rereads=..": the time
 *	util_avg took to go from 0 to 512 while running (PELT clock, from
 *	last_update_time; u0, the first value read, is 0 unless a tick came
 *	before the first read: then the time from 0 is extrapolated along the
 *	first two samples), and to fall from top (its value
 *	when the first run ended) to 512 asleep (CLOCK_MONOTONIC); both
 *	interpolated between the two samples around 512 as an exponential
 *	(exact for PELT's geometric series, whatever its half-life).
 *	rereads: reads made again because a PELT update came between two
 *	reads or midway through one (util_avg is printed before
 *	last_update_time, with no lock). With -v,
 *	each sample as "sample phase=rise|decay t_us=.. util=..".
 *   eas-work pelt-steady PERIOD_US LOOPS SECONDS
 *	A periodic task (every PERIOD_US, LOOPS iterations, for SECONDS) and
 *	the time average of its util_avg, from the trace of its PELT updates
 *	(tracefs event sched_eas/sched_pelt_task, CONFIG_SCHED_EAS_EVENTS:
 *	value and PELT clock of each update): the task reads nothing, it
 *	marks where it goes to sleep (trace_marker). Between two updates it
 *	either ran or slept throughout, and util_avg is an exponential whose
 *	mean follows from its two ends, whatever the half-life. Over the last
 *	3/4 of the periods it prints "avg=.. min=.. max=.. periods=..
 *	skipped=..": the time average, the medians of the value at wakeup and
 *	at the sleep, the periods used and those skipped (a sleep with no
 *	update of its own: no PELT period boundary since the last tick).
 *
 *   eas-work syscall N
 *	The cost of a null system call: N getppid() calls by syscall(2), as
 *	lmbench's lat_syscall null does. Prints "ns_per_call=..".
 *   eas-work pipe N
 *	The cost of a wakeup and a context switch: N round trips of one byte
 *	between this task and a child on the same CPUs (pin it with taskset
 *	to one CPU), over two pipes, as lmbench's lat_pipe does. Prints
 *	"ns_per_round_trip=..": two context switches, two writes, two reads.
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

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

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

/* Advance @ts by @us microseconds. */
static void timespec_add_us(struct timespec *ts, unsigned long us)
{
	ts->tv_nsec += us * 1000;
	while (ts->tv_nsec >= 1000000000L) {
		ts->tv_nsec -= 1000000000L;
		ts->tv_sec++;
	}
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
 * /proc/self/sched (CONFIG_SCHED_DEBUG) into @buf, in one open and read
 * (the fewer instructions, the less the reading itself runs); false if it
 * cannot be read.
 */
static bool read_sched(char *buf, size_t size)
{
	int fd = open("/proc/self/sched", O_RDONLY);
	ssize_t n = -1, got = 0;

	if (fd < 0)
		return false;
	while (got < (ssize_t)size - 1 &&
	       (n = read(fd, buf + got, size - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	return n >= 0;
}

/*
 * The number of the line "NAME   : VALUE" of /proc/self/sched's text in
 * @buf, or -1.
 */
static double field_in(const char *buf, const char *name)
{
	size_t len = strlen(name);
	const char *p = buf;
	double v;

	while ((p = strstr(p, name))) {
		if ((p == buf || p[-1] == '\n') &&
		    (p[len] == ' ' || p[len] == ':'))
			break;
		p += len;
	}
	if (!p)
		return -1;
	p = strchr(p, ':');
	if (!p || sscanf(p + 1, "%lf", &v) != 1)
		return -1;
	return v;
}

/*
 * A field of /proc/self/sched, e.g. "se.avg.util_avg" or
 * "se.sum_exec_runtime" (ms, with 6 decimals), or -1.
 */
static double sched_field(const char *name)
{
	static char buf[8192];

	return read_sched(buf, sizeof(buf)) ? field_in(buf, name) : -1;
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

/* This CPU's vCPU's instruction count (virt_cpu_speed debugfs), or -1. */
static long long read_insns(void)
{
	int cpu = sched_getcpu();
	long long v = -1;
	char path[64];
	FILE *f;

	if (cpu < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/virt_cpu_speed/cpu%d/insns", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * This CPU's vCPU's instructions outside the CPU speed emulation's own code
 * (the sum of its class counts, user and kernel, but the exception entries,
 * which are no instructions, and the memory events), or -1.
 */
static long long read_counted(void)
{
	int cpu = sched_getcpu();
	long long sum = 0, user, kernel;
	char path[80], name[32];
	FILE *f;

	if (cpu < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/virt_cpu_speed/cpu%d/insn_classes", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%31s %lld %lld", name, &user, &kernel) == 3) {
		if (!strcmp(name, "entry") || !strcmp(name, "l2") ||
		    !strcmp(name, "dram") || !strcmp(name, "stream"))
			continue;
		sum += user + kernel;
	}
	if (!feof(f))
		sum = -1;
	fclose(f);
	return sum;
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
		timespec_add_us(&next, period_us);
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
	printf("mean=%.1f min=%ld max=%ld busy=%.1f%%\n",
	       counted ? (double)sum / counted : -1.0,
	       counted ? samples[0] : -1, counted ? samples[counted - 1] : -1,
	       100.0 * (runtime_ns() - r0) / (sys_now_ns() - t0));
	free(samples);
	return 0;
}

#define PELT_NO_PELT \
	"eas-work: no se.avg.util_avg or se.avg.last_update_time in /proc/self/sched: needs CONFIG_SCHED_DEBUG\n"

/*
 * util_avg and last_update_time (PELT clock, ns) of this task, from one
 * read of /proc/self/sched; false (said on stderr) if either is missing.
 */
static bool read_pelt_once(long *util, long long *lut)
{
	static char buf[8192];
	double u = -1, t = -1;

	if (read_sched(buf, sizeof(buf))) {
		u = field_in(buf, "se.avg.util_avg");
		t = field_in(buf, "se.avg.last_update_time");
	}
	if (u < 0 || t < 0) {
		fprintf(stderr, PELT_NO_PELT);
		return false;
	}
	*util = (long)u;
	*lut = (long long)t;
	return true;
}

/*
 * util_avg and last_update_time of this task as one update left them.
 * The kernel prints util_avg before last_update_time, with no lock: a
 * tick between the two gives the old util_avg with the new time (seen:
 * a rise sample 10 ms on with util_avg unchanged, the half-life measured
 * 18.3 ms for 8.2). Two reads in a row that agree are one update's;
 * pelt_rereads counts the reads made again.
 */
static unsigned long pelt_rereads;

static bool read_pelt(long *util, long long *lut)
{
	long u2;
	long long t2;
	int tries;

	if (!read_pelt_once(util, lut))
		return false;
	for (tries = 0; tries < 100; tries++) {
		if (!read_pelt_once(&u2, &t2))
			return false;
		if (u2 == *util && t2 == *lut)
			return true;
		pelt_rereads++;
		*util = u2;
		*lut = t2;
	}
	fprintf(stderr,
		"eas-work: /proc/self/sched: util_avg and last_update_time changed in each of 100 reads in a row\n");
	return false;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/*
 * The time at which an exponential through (t0, v0) and (t1, v1), v > 0,
 * reaches v: log(v) is linear in time.
 */
static double exp_cross(double t0, double v0, double t1, double v1, double v)
{
	if (v0 == v1)
		return t0;
	return t0 + (t1 - t0) * log(v0 / v) / log(v0 / v1);
}

static int pelt_step(bool verbose, unsigned long sleep_ms, unsigned long run_ms,
		     unsigned long decay_ms)
{
	long u, prev_u = -1, u0 = -1, u1 = -1, top = -1;
	long long lut, prev_lut = -1, lut0 = -1, lut1 = -1;
	double rise = -1, decay = -1, prev_t = 0, prev_v = 1, v;
	unsigned long rise_n = 0, decay_n = 0, d_us;
	uint64_t end, t, t_sleep;

	sleep_ns(sleep_ms * 1000000ULL);
	end = sys_now_ns() + run_ms * 1000000ULL;
	do {
		if (!read_pelt(&u, &lut))
			return 2;
		if (lut != prev_lut) {
			if (lut0 < 0) {
				lut0 = lut;
				u0 = u;
			} else if (lut1 < 0) {
				lut1 = lut;
				u1 = u;
			}
			if (verbose)
				printf("sample phase=rise t_us=%.1f util=%ld\n",
				       (lut - lut0) / 1e3, u);
			/* 1024 - util_avg is the exponential while running. */
			if (rise < 0 && prev_u >= 0 && prev_u < 512 && u >= 512)
				rise = exp_cross(prev_lut, 1024 - prev_u, lut,
						 1024 - u, 512);
			prev_lut = lut;
			prev_u = u;
			rise_n++;
		}
		top = u;
		work(1000);
	} while (now_ns() < end);
	/*
	 * From util_avg 0: when a tick came before the first read, the
	 * wakeup's own update is not seen and u0 > 0; the exponential
	 * through the first two samples gives when it was 0.
	 */
	if (rise >= 0) {
		double zero = lut0;

		if (u0 > 0 && lut1 > lut0 && u1 > u0)
			zero = exp_cross(lut0, 1024 - u0, lut1, 1024 - u1, 1024);
		rise = (rise - zero) / 1e6;
	}

	/*
	 * The decay: cycles of a run of RUN_MS / 2 (back to about the top)
	 * and one sleep, 2 ms and then 3/2 as long each cycle, util_avg read
	 * once at its wakeup (one read a sleep: the reads do not slow the
	 * decay), until it is under 256 or the sleep passes DECAY_MS. Asleep
	 * util_avg only decays: its fraction left of the value before the
	 * sleep follows one curve, whatever that value.
	 */
	for (d_us = 2000; d_us <= decay_ms * 1000; d_us = d_us * 3 / 2) {
		long before;

		end = sys_now_ns() + run_ms * 500000ULL;
		while (now_ns() < end)
			work(1000);
		if (!read_pelt(&before, &lut))
			return 2;
		t_sleep = sys_now_ns();
		sleep_ns(d_us * 1000ULL);
		t = sys_now_ns();
		if (!read_pelt(&u, &lut))
			return 2;
		/* The fraction left of the top: the same curve every cycle. */
		v = before > 0 ? (double)u / before : 0;
		if (verbose)
			printf("sample phase=decay t_us=%.1f util=%ld top=%ld\n",
			       (t - t_sleep) / 1e3, u, before);
		if (decay < 0 && prev_v > 512.0 / top && v <= 512.0 / top && v > 0)
			decay = exp_cross(prev_t, prev_v, (t - t_sleep) / 1e6, v,
					  512.0 / top);
		prev_t = (t - t_sleep) / 1e6;
		prev_v = v;
		decay_n++;
		if (u < 256)
			break;
	}
	printf("rise_ms=%.2f decay_ms=%.2f u0=%ld top=%ld rise_samples=%lu decay_samples=%lu",
	       rise, decay, u0, top, rise_n, decay_n);
	printf(" rereads=%lu\n", pelt_rereads);
	return 0;
}

/* The mean of an exponential from v0 to v1 over its interval. */
static double exp_mean(double v0, double v1)
{
	if (v0 <= 0 || v1 <= 0 || v0 == v1)
		return (v0 + v1) / 2;
	return (v0 - v1) / log(v0 / v1);
}

#define TRACEFS "/sys/kernel/tracing/"

/* Write @val into tracefs file @name; false on error (printed). */
static bool tracefs_write(const char *name, const char *val)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), TRACEFS "%s", name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "eas-work: cannot open %s: %s\n", path, strerror(errno));
		return false;
	}
	ok = fputs(val, f) >= 0;
	ok = !fclose(f) && ok;
	if (!ok)
		fprintf(stderr, "eas-work: cannot write '%s' to %s\n", val, path);
	return ok;
}

/* The timestamp (s) of a trace line, the number before ": EVENT:". */
static double trace_ts(const char *line, const char *event)
{
	const char *p = strstr(line, event), *q;

	if (!p)
		return -1;
	for (q = p; q > line && q[-1] != ' '; q--)
		;
	return strtod(q, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The number after @name ("key=") in a trace line, or -1. */
static double trace_field(const char *line, const char *name)
{
	const char *p = strstr(line, name);

	return p ? strtod(p + strlen(name), NULL) : -1;
}

/*
 * The periodic task and the time average of its util_avg, from the trace
 * of its PELT updates (sched_eas/sched_pelt_task): the task reads nothing
 * while it runs, it only marks its sleeps (trace_marker).
 */
static int pelt_steady(unsigned long period_us, unsigned long loops,
		       unsigned long seconds)
{
	unsigned long n = seconds * 1000000UL / period_us, i, used = 0;
	unsigned long skipped = 0;
	double *lo = calloc(n + 1, sizeof(*lo)), *hi = calloc(n + 1, sizeof(*hi));
	double area = 0, time = 0, p_area = 0, p_time = 0, p_lo = -1, p_hi = -1;
	double prev_t = -1, prev_u = 0, mark_ts = -1;
	bool started = false, prev_deq = false, p_ok = false;
	char filter[64], line[512];
	struct timespec next;
	FILE *mark, *f;

	if (!lo || !hi) {
		fprintf(stderr, "eas-work: out of memory\n");
		return 2;
	}
	snprintf(filter, sizeof(filter), "pid == %d", (int)getpid());
	if (!tracefs_write("tracing_on", "0") ||
	    !tracefs_write("events/sched_eas/sched_pelt_task/filter", filter) ||
	    !tracefs_write("events/sched_eas/sched_pelt_task/enable", "1") ||
	    !tracefs_write("trace", ""))
		return 2;
	mark = fopen(TRACEFS "trace_marker", "w");
	if (!mark) {
		fprintf(stderr, "eas-work: cannot open " TRACEFS "trace_marker\n");
		return 2;
	}
	setvbuf(mark, NULL, _IONBF, 0);
	if (!tracefs_write("tracing_on", "1"))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		/* PELT has settled after the first quarter. */
		if (i == n / 4)
			fputs("pelt_start\n", mark);
		work(loops);
		fputs("pelt_sleep\n", mark);
		timespec_add_us(&next, period_us);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	tracefs_write("tracing_on", "0");
	tracefs_write("events/sched_eas/sched_pelt_task/enable", "0");
	fclose(mark);

	/*
	 * In trace order: the update at the end of a run (the dequeue) is
	 * the first one after "pelt_sleep", within 1 ms of it (the task runs
	 * until it sleeps); the next one is the wakeup's (enqueue). From an
	 * update to the next the task either ran throughout or slept
	 * throughout, and util_avg is an exponential: its mean follows from
	 * the two ends. A period (wakeup to wakeup) whose dequeue left no
	 * update (no PELT period boundary crossed since a tick) is skipped.
	 */
	f = fopen(TRACEFS "trace", "r");
	if (!f) {
		fprintf(stderr, "eas-work: cannot read " TRACEFS "trace\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		double ts, u, t, dt;
		bool deq = false, mixed = false;

		if (strstr(line, "tracing_mark_write: pelt_start")) {
			started = true;
			continue;
		}
		if (strstr(line, "tracing_mark_write: pelt_sleep")) {
			mark_ts = trace_ts(line, ": tracing_mark_write:");
			continue;
		}
		ts = trace_ts(line, ": sched_pelt_task:");
		if (ts < 0)
			continue;
		u = trace_field(line, " util_avg=");
		t = trace_field(line, " update_time=");
		if (u < 0 || t < 0)
			continue;
		if (mark_ts >= 0) {
			deq = ts - mark_ts < 0.001;
			/* No dequeue update: run and sleep since the last one. */
			mixed = !deq;
			mark_ts = -1;
		}
		dt = t - prev_t;
		if (prev_t >= 0 && dt > 0) {
			if (prev_deq)
				p_area += exp_mean(prev_u, u) * dt;
			else
				p_area += (1024 - exp_mean(1024 - prev_u, 1024 - u)) * dt;
			p_time += dt;
		}
		if (deq)
			p_hi = u;
		/* A wakeup: the period that ends here is complete. */
		if (prev_deq || mixed) {
			if (p_ok && !mixed && p_time > 0 && p_hi >= 0) {
				area += p_area;
				time += p_time;
				lo[used] = p_lo;
				hi[used++] = p_hi;
			} else if (p_ok) {
				skipped++;
			}
			p_area = 0;
			p_time = 0;
			p_ok = started;
			p_lo = u;
			p_hi = -1;
		}
		prev_t = t;
		prev_u = u;
		prev_deq = deq;
	}
	fclose(f);
	qsort(lo, used, sizeof(*lo), cmp_double);
	qsort(hi, used, sizeof(*hi), cmp_double);
	printf("avg=%.1f min=%.0f max=%.0f periods=%lu skipped=%lu\n",
	       time > 0 ? area / time : -1, used ? lo[used / 2] : -1,
	       used ? hi[used / 2] : -1, used, skipped);
	free(lo);
	free(hi);
	return 0;
}

static int null_syscalls(unsigned long n)
{
	unsigned long i;
	uint64_t t0;

	t0 = sys_now_ns();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	t0 = sys_now_ns() - t0;
	printf("ns_per_call=%.1f\n", n ? (double)t0 / n : -1.0);
	return 0;
}

/* Move one byte from @in to @out, @n times: 0, or -1 on a short transfer. */
static int relay(int in, int out, unsigned long n, bool first)
{
	char c = 0;

	while (n--) {
		if (first && write(out, &c, 1) != 1)
			return -1;
		if (read(in, &c, 1) != 1)
			return -1;
		if (!first && write(out, &c, 1) != 1)
			return -1;
	}
	return 0;
}

static int pipe_round_trips(unsigned long n)
{
	int there[2], back[2], status;
	uint64_t t0;
	pid_t pid;

	if (pipe(there) || pipe(back)) {
		perror("eas-work: pipe");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("eas-work: fork");
		return 2;
	}
	if (!pid)
		_exit(relay(there[0], back[1], n + 1, false) ? 1 : 0);
	/* One round trip first: the child has run once. */
	if (relay(back[0], there[1], 1, true))
		goto broken;
	t0 = sys_now_ns();
	if (relay(back[0], there[1], n, true))
		goto broken;
	t0 = sys_now_ns() - t0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		goto broken;
	printf("ns_per_round_trip=%.1f\n", n ? (double)t0 / n : -1.0);
	return 0;
broken:
	fprintf(stderr, "eas-work: pipe: a round trip was cut short\n");
	return 2;
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
		long long i0, i1, ca, c0, c1;

		start_at(start);
		/*
		 * The class counts cost a read of their own, too long to
		 * time: read them around the timed window, and take off
		 * what two reads in a row count (the end of one read and
		 * the start of the next, as around the window).
		 */
		ca = read_counted();
		c0 = read_counted();
		r0 = runtime_ns();
		t0 = sys_now_ns();
		i0 = read_insns();
		work(n);
		i1 = read_insns();
		t0 = sys_now_ns() - t0;
		r0 = runtime_ns() - r0;
		c1 = read_counted();
		printf("wall_ns=%llu runtime_ns=%lld", (unsigned long long)t0, r0);
		if (i0 >= 0 && i1 >= i0)
			printf(" insns=%lld", i1 - i0);
		if (ca >= 0 && c0 >= ca && c1 >= c0 + (c0 - ca))
			printf(" counted=%lld", (c1 - c0) - (c0 - ca));
		printf("\n");
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

	if ((argc == 5 || argc == 6) && !strcmp(argv[argc - 4], "pelt-step") &&
	    (argc == 5 || !strcmp(argv[1], "-v")))
		return pelt_step(argc == 6, arg(argv[argc - 3]),
				 arg(argv[argc - 2]), arg(argv[argc - 1]));
	if (argc == 5 && !strcmp(argv[1], "pelt-steady"))
		return pelt_steady(arg(argv[2]), arg(argv[3]), arg(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "syscall"))
		return null_syscalls(arg(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "pipe"))
		return pipe_round_trips(arg(argv[2]));

	fprintf(stderr,
		"usage: eas-work now | [-a START_NS] loops N | [-a START_NS] spin MS [FILE...]\n"
		"       | [-a START_NS] periodic PERIOD_US LOOPS SECONDS [EVERY]\n"
		"       | [-v] pelt-step SLEEP_MS RUN_MS DECAY_MS\n"
		"       | pelt-steady PERIOD_US LOOPS SECONDS | syscall N | pipe N\n");
	return 2;
}
