// SPDX-License-Identifier: GPL-2.0
/*
 * vxu4-probe - the kernel and memory paths whose cost on the boards is
 * published (lmbench, UnixBench, sbc-bench), measured in the virtual XU4
 *
 * Usage: vxu4-probe PROBE N
 *        vxu4-probe classes
 *
 * Runs N operations of PROBE (after a tenth of N, at least one, as a
 * warm-up) and prints one line:
 *
 *	ns_per_op=T ops=N [overhead_ns_a7=O7 overhead_ns_a15=O15] [work_ns_a7=W7
 *	work_ns_a15=W15] [kthread_ns_a7=K7 kthread_ns_a15=K15]
 *	[kernel_owed_ns_a7=D7 kernel_owed_ns_a15=D15] [NAME_a7=V7 NAME_a15=V15 ..]
 *	a7=C0,..,C31 a15=C0,..,C31
 *
 * T is guest time (CLOCK_MONOTONIC, read by a system call so that a task
 * slowed by the CPU speed emulation has paid for its work first). a7 and
 * a15 are the instruction class counts per operation, summed over the
 * CPUs of each core type that the probe may run on (its affinity, as
 * taskset set it: the other CPUs' counts are what ran beside it, their
 * ticks and interrupts), from the CPU speed emulation's debugfs
 * (virt_cpu_speed/cpuN/insn_classes: the classes in user mode, then in
 * kernel mode, in that file's order), or "none" where it has none; with
 * the emulator's cache model, C32..C37 follow: its memory events (l2,
 * dram, stream) in user mode, then in kernel mode. O7 and O15 are the
 * CPU speed emulation's own time per operation on each core type's CPUs
 * of the affinity (virt_cpu_speed/cpuN/overhead_ns: its hooks, charged as
 * no work, whose instructions the counts leave out where
 * virt_cpu_speed/classes_without_own says Y). W7 and W15 are the work it
 * charged to user tasks there (work_ns: ns at the reference's speed, or
 * where it counts cycles at the top rate of the CPU's clock), K7 and K15
 * the run time of kernel threads (kthread_ns), D7 and D15, counting
 * cycles, the stall their work and the idle task's owed, which the next
 * user task pays (kernel_owed_ns), and NAME each of the emulation's
 * accounts of the time: owed_ns (the stall user tasks' work owed),
 * stall_ns (what they paid), spin_ns (of that, paid by spinning before a
 * wakeup), dropped_ns, lost_credit_ns (paid past the debts, never taken
 * off a later one), shortfall_ns and run_ns; all per operation, each pair where
 * every CPU of the affinity has the counter. The counts and counters are
 * read around the time, and an empty window's (the same reads, no
 * operation) are taken off them: the work of the reads, not timed.
 *
 * The probes, each as the benchmark that published the board's figure
 * does it:
 *	null		syscall(SYS_getppid) (lmbench lat_syscall null)
 *	read		read one byte of /dev/zero (lat_syscall read)
 *	write		write one byte to /dev/null (lat_syscall write)
 *	sigcatch	kill(2) of itself with SIGUSR1 caught (lat_sig catch)
 *	pagefault	the first touch of a page of a file mapped shared,
 *			per page (lat_pagefault)
 *	fork		fork(2), the child exits, the parent waits (lat_proc
 *			fork)
 *	pipe		a one-byte round trip between two processes over two
 *			pipes (lat_pipe; on one CPU when pinned: two context
 *			switches)
 *	ctx		a context switch: a pipe round trip between two
 *			processes, each summing 128 KiB of its own memory
 *			when it has the token, halved, less the same pass
 *			(a write, a read and the sum) in one process
 *			(lat_ctx -s 128 2)
 *	ub-syscall	close(dup(0)), getpid(), getuid(), umask(022) (UnixBench
 *			syscall, one loop)
 *	ub-pipe		write then read 512 bytes on one pipe, one process
 *			(UnixBench pipe throughput)
 *	ub-ctx		a round trip of an int between two processes over two
 *			pipes (UnixBench pipe-based context switching)
 *	memcpy		memcpy of 4 MiB between two buffers (sbc-bench's
 *			libc memcpy; also printed as mb_s=, 10^6 bytes a
 *			second)
 *	lat-l1, lat-16m	a dependent load chasing pointers through 4 KiB or
 *			16 MiB in a random cycle of 64-byte lines, per load
 *			(sbc-bench's memory latency, tinymembench)
 *
 * "vxu4-probe classes" prints the class counts so far, summed as above
 * ("a7=.. a15=.."), for work that is not one of the probes (hackbench):
 * the difference of two such lines is its counts.
 *
 * Exit: 0, 1 a probe's system call failed, 2 bad usage.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define NR_CLASSES	16
#define NR_EVENTS	3
#define NR_COUNTS	(2 * NR_CLASSES + 2 * NR_EVENTS)
#define MAX_CPUS	8
#define CLASSES_PATH	"/sys/kernel/debug/virt_cpu_speed/cpu%d/insn_classes"
#define SPEED_PATH	"/sys/kernel/debug/virt_cpu_speed/cpu%d/%s"
#define A15_FIRST_CPU	4
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void die(const char *what)
{
	fprintf(stderr, "vxu4-probe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t sys_now_ns(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The class counts came with the cache model's memory event counts. */
static bool have_events;

/* The CPUs whose counts are summed: the affinity the probe started with. */
static cpu_set_t counted;

static void read_affinity(void)
{
	if (sched_getaffinity(0, sizeof(counted), &counted))
		die("sched_getaffinity");
}

/*
 * Add each CPU's class counts to @a7 or @a15 (the XU4's cpu0-3 and
 * cpu4-7), then its memory event counts where the emulator has a cache
 * model: false where there are none.
 */
static bool read_classes(uint64_t *a7, uint64_t *a15)
{
	char path[96], name[32];
	unsigned long long u, k;
	int cpu, i;
	FILE *f;

	memset(a7, 0, NR_COUNTS * sizeof(*a7));
	memset(a15, 0, NR_COUNTS * sizeof(*a15));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		uint64_t *c = cpu < A15_FIRST_CPU ? a7 : a15;

		if (!CPU_ISSET(cpu, &counted))
			continue;
		snprintf(path, sizeof(path), CLASSES_PATH, cpu);
		f = fopen(path, "r");
		if (!f)
			return false;
		for (i = 0; i < NR_CLASSES; i++) {
			if (fscanf(f, "%31s %llu %llu", name, &u, &k) != 3) {
				fclose(f);
				return false;
			}
			c[i] += u;
			c[NR_CLASSES + i] += k;
		}
		have_events = true;
		for (i = 0; i < NR_EVENTS; i++) {
			if (fscanf(f, "%31s %llu %llu", name, &u, &k) != 3) {
				have_events = false;
				break;
			}
			c[2 * NR_CLASSES + i] += u;
			c[2 * NR_CLASSES + NR_EVENTS + i] += k;
		}
		fclose(f);
	}
	return true;
}

/*
 * The CPU speed emulation's counters that the line gives, per operation
 * and core type (virt_cpu_speed/cpuN/<name>): its own time in user tasks'
 * run time (its hooks), the work it charged to user tasks (ns at the top
 * rate of the CPU's clock where it counts cycles), the run time of kernel
 * threads and, counting cycles, what their work and the idle task's owed
 * (paid by the next user task); then where the window's time went: the
 * stall owed and paid, paid by spinning, dropped, paid past the debts and
 * lost, the time the CPUs ran slower than their speed, and user tasks'
 * run time.
 */
static const char *const speed_counters[] = {
	"overhead_ns", "work_ns", "kthread_ns", "kernel_owed_ns",
	"owed_ns", "stall_ns", "spin_ns", "dropped_ns", "lost_credit_ns", "shortfall_ns",
	"run_ns",
};

#define NR_SPEED	ARRAY_SIZE(speed_counters)

/*
 * Each of speed_counters[], summed over the A7s (@v[2 * i]) and the A15s
 * (@v[2 * i + 1]) of the affinity; @have[i] false where a CPU has no such
 * counter (a kernel without it) or it cannot be read.
 */
static void read_speed(uint64_t *v, bool *have)
{
	unsigned long long x;
	char path[96];
	unsigned int i;
	int cpu, ok;
	FILE *f;

	for (i = 0; i < NR_SPEED; i++) {
		v[2 * i] = 0;
		v[2 * i + 1] = 0;
		have[i] = true;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &counted))
			continue;
		for (i = 0; i < NR_SPEED; i++) {
			snprintf(path, sizeof(path), SPEED_PATH, cpu, speed_counters[i]);
			f = fopen(path, "r");
			ok = f && fscanf(f, "%llu", &x) == 1;
			if (f)
				fclose(f);
			if (ok)
				v[2 * i + (cpu >= A15_FIRST_CPU)] += x;
			else
				have[i] = false;
		}
	}
}

static void print_counts(const char *core, const uint64_t *c0,
			 const uint64_t *c1, unsigned long n)
{
	int i;

	printf(" %s=", core);
	for (i = 0; i < (have_events ? NR_COUNTS : 2 * NR_CLASSES); i++)
		printf("%s%.2f", i ? "," : "", (double)(c1[i] - c0[i]) / n);
}

/* The probes: each runs @n operations. */

static void p_null(unsigned long n)
{
	while (n--)
		syscall(SYS_getppid);
}

static int zero_fd, null_fd;

static void p_read(unsigned long n)
{
	char c;

	while (n--)
		if (read(zero_fd, &c, 1) != 1)
			die("read /dev/zero");
}

static void p_write(unsigned long n)
{
	char c = 0;

	while (n--)
		if (write(null_fd, &c, 1) != 1)
			die("write /dev/null");
}

/* The handler itself is what lat_sig catch times: it does nothing. */
static void on_usr1(int sig)
{
	(void)sig;
}

static void p_sigcatch(unsigned long n)
{
	pid_t me = getpid();

	while (n--)
		if (kill(me, SIGUSR1))
			die("kill");
}

static char *fault_map;
static size_t fault_pages, fault_next;
static long page_size;

/* Map a fresh file of @pages pages, shared, to fault its pages in. */
static void fault_setup(size_t pages)
{
	char path[] = "/tmp/vxu4-probe.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0 || ftruncate(fd, (off_t)(pages * page_size)))
		die("a file to map in /tmp");
	/* The pages exist in the page cache: the faults are minor. */
	fault_map = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
	if (fault_map == MAP_FAILED)
		die("mmap");
	memset(fault_map, 1, pages * page_size);
	if (munmap(fault_map, pages * page_size))
		die("munmap");
	fault_map = mmap(NULL, pages * page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (fault_map == MAP_FAILED)
		die("mmap");
	close(fd);
	unlink(path);
	fault_pages = pages;
	fault_next = 0;
}

static void p_pagefault(unsigned long n)
{
	char c;

	while (n--) {
		if (fault_next == fault_pages)
			die("more faults than pages mapped");
		c = fault_map[fault_next++ * page_size];
		/* The read must happen. */
		__asm__ volatile("" : : "r"(c));
	}
}

static void p_fork(unsigned long n)
{
	int status;
	pid_t pid;

	while (n--) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
	}
}

/*
 * The ctx probe's working set: each process sums this many bytes of its
 * own memory each time it holds the token, as lat_ctx -s 128 does.
 */
#define CTX_BYTES	(128UL << 10)
static size_t work_bytes;
static unsigned int *work_mem;
static unsigned int work_sum;

/*
 * The calling process's own working set (written, so that a child's is
 * its own memory, not its parent's pages shared copy-on-write).
 */
static void work_setup(void)
{
	if (!work_bytes)
		return;
	work_mem = malloc(work_bytes);
	if (!work_mem)
		die("malloc");
	memset(work_mem, 1, work_bytes);
}

static void work(void)
{
	size_t i;

	for (i = 0; i < work_bytes / sizeof(*work_mem); i++)
		work_sum += work_mem[i];
	/* Keep the sum from being optimised away. */
	__asm__ volatile("" : : "r"(work_sum));
}

/*
 * Move @size bytes from @in to @out, @n times, first writing if @first,
 * doing the working set's pass each time the token arrives.
 */
static int relay(int in, int out, unsigned long n, bool first, size_t size)
{
	char buf[512] = { 0 };

	while (n--) {
		if (first && write(out, buf, size) != (ssize_t)size)
			return -1;
		if (read(in, buf, size) != (ssize_t)size)
			return -1;
		work();
		if (!first && write(out, buf, size) != (ssize_t)size)
			return -1;
	}
	return 0;
}

static int there[2], back[2];
static pid_t partner;
static size_t partner_size;

/* A child that echoes, for @n round trips (plus the warm-up's). */
static void partner_start(unsigned long n, size_t size)
{
	if (pipe(there) || pipe(back))
		die("pipe");
	partner_size = size;
	partner = fork();
	if (partner < 0)
		die("fork");
	if (!partner) {
		work_setup();
		_exit(relay(there[0], back[1], n, false, size) ? 1 : 0);
	}
}

static void partner_end(void)
{
	int status;

	if (waitpid(partner, &status, 0) != partner || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "vxu4-probe: the partner process failed\n");
		exit(1);
	}
}

static void p_round_trip(unsigned long n)
{
	if (relay(back[0], there[1], n, true, partner_size))
		die("a round trip");
}

static int self_pipe[2];

static void p_self_pipe(unsigned long n)
{
	char buf[512] = { 0 };

	while (n--) {
		if (write(self_pipe[1], buf, partner_size) != (ssize_t)partner_size ||
		    read(self_pipe[0], buf, partner_size) != (ssize_t)partner_size)
			die("pipe to itself");
		work();
	}
}

static void p_ub_syscall(unsigned long n)
{
	while (n--) {
		close(dup(0));
		getpid();
		getuid();
		umask(022);
	}
}

#define MEMCPY_BYTES	(4UL << 20)
static char *copy_src, *copy_dst;

static void p_memcpy(unsigned long n)
{
	while (n--) {
		memcpy(copy_dst, copy_src, MEMCPY_BYTES);
		/* Keep the copy from being optimised away. */
		__asm__ volatile("" : : "r"(copy_dst) : "memory");
	}
}

static void **chase;

/* A random cyclic chain of pointers, one each 64-byte line of @bytes. */
static void chase_setup(size_t bytes)
{
	size_t lines = bytes / 64, i, j, t;
	size_t *order;
	char *mem;

	mem = aligned_alloc(64, bytes);
	order = malloc(lines * sizeof(*order));
	if (!mem || !order)
		die("malloc");
	for (i = 0; i < lines; i++)
		order[i] = i;
	srand(1);
	for (i = lines - 1; i > 0; i--) {
		j = (size_t)rand() % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < lines; i++)
		*(void **)(mem + order[i] * 64) = mem + order[(i + 1) % lines] * 64;
	chase = (void **)(mem + order[0] * 64);
	free(order);
}

static void p_chase(unsigned long n)
{
	void **p = chase;

	while (n--)
		p = *p;
	chase = p;
}

struct probe {
	const char *name;
	void (*run)(unsigned long n);
};

static const struct probe probes[] = {
	{ "null", p_null }, { "read", p_read }, { "write", p_write },
	{ "sigcatch", p_sigcatch }, { "pagefault", p_pagefault },
	{ "fork", p_fork }, { "pipe", p_round_trip }, { "ctx", p_round_trip },
	{ "ub-syscall", p_ub_syscall }, { "ub-pipe", p_self_pipe },
	{ "ub-ctx", p_round_trip }, { "memcpy", p_memcpy },
	{ "lat-l1", p_chase }, { "lat-16m", p_chase },
};

/*
 * One window: the class counts and speed counters read around the guest
 * time of @n operations of @run. Return: the time, ns; the counts'
 * growth in @a7, @a15 (@classes false where there are none) and the
 * counters' in @spd (read_speed()'s order), with @have.
 */
static uint64_t window(void (*run)(unsigned long), unsigned long n,
		       uint64_t *a7, uint64_t *a15, bool *classes, int64_t *spd,
		       bool *have)
{
	uint64_t a7_0[NR_COUNTS], a15_0[NR_COUNTS], t0, t1;
	uint64_t s0[2 * NR_SPEED], s1[2 * NR_SPEED];
	bool h1[NR_SPEED];
	unsigned int i;

	*classes = read_classes(a7_0, a15_0);
	read_speed(s0, have);
	/*
	 * A system call pays the task's debt before it runs, but that
	 * payment ends early where another task waits for the CPU; the
	 * clock would then be read before the work is paid. A yield lets
	 * that task run first, and the clock's read pays the rest.
	 */
	sched_yield();
	t0 = sys_now_ns();
	if (n)
		run(n);
	sched_yield();
	t1 = sys_now_ns();
	read_speed(s1, h1);
	for (i = 0; i < 2 * NR_SPEED; i++)
		spd[i] = (int64_t)(s1[i] - s0[i]);
	for (i = 0; i < NR_SPEED; i++)
		have[i] = have[i] && h1[i];
	if (*classes && read_classes(a7, a15)) {
		for (i = 0; i < NR_COUNTS; i++) {
			a7[i] -= a7_0[i];
			a15[i] -= a15_0[i];
		}
	} else {
		*classes = false;
	}
	return t1 - t0;
}

/*
 * Time @n operations of @run, and their class counts; in @spd each of
 * speed_counters[] per operation on the A7s and the A15s (read_speed()'s
 * order), -1 where there are none. The counts and counters are read
 * around the time, so that they hold the work of those reads too, and of
 * the debt those reads make, which the time's first read pays before it
 * reads the clock: an empty window's counts and counters (an operation's
 * worth of nothing) are taken off, as what two reads in a row count.
 */
static double measure(void (*run)(unsigned long), unsigned long n,
		      uint64_t *a7, uint64_t *a15, bool *classes, double *spd)
{
	uint64_t z7[NR_COUNTS], z15[NR_COUNTS], t;
	int64_t sz[2 * NR_SPEED], sn[2 * NR_SPEED];
	bool hz[NR_SPEED], hn[NR_SPEED], cz;
	unsigned int i;

	window(run, 0, z7, z15, &cz, sz, hz);
	t = window(run, n, a7, a15, classes, sn, hn);
	for (i = 0; i < 2 * NR_SPEED; i++)
		spd[i] = hz[i / 2] && hn[i / 2] ?
			 (double)(sn[i] > sz[i] ? sn[i] - sz[i] : 0) / n : -1;
	*classes = *classes && cz;
	for (i = 0; i < NR_COUNTS && *classes; i++) {
		a7[i] = a7[i] > z7[i] ? a7[i] - z7[i] : 0;
		a15[i] = a15[i] > z15[i] ? a15[i] - z15[i] : 0;
	}
	return (double)t / n;
}

int main(int argc, char **argv)
{
	uint64_t a7[NR_COUNTS], a15[NR_COUNTS], zero[NR_COUNTS] = { 0 };
	unsigned long n, warm, per = 1;
	const struct probe *p = NULL;
	double ns, spd[2 * NR_SPEED], self_spd[2 * NR_SPEED];
	bool classes;
	char *end;
	size_t i;

	read_affinity();
	if (argc == 2 && !strcmp(argv[1], "classes")) {
		if (!read_classes(a7, a15)) {
			fprintf(stderr, "vxu4-probe: no class counts in " CLASSES_PATH "\n", 0);
			return 1;
		}
		print_counts("a7", zero, a7, 1);
		print_counts("a15", zero, a15, 1);
		printf("\n");
		return fflush(stdout) ? 1 : 0;
	}
	if (argc == 3)
		for (i = 0; i < ARRAY_SIZE(probes); i++)
			if (!strcmp(argv[1], probes[i].name))
				p = &probes[i];
	errno = 0;
	n = argc == 3 ? strtoul(argv[2], &end, 10) : 0;
	if (!p || errno || *end || !n || n > 100000000UL) {
		fprintf(stderr,
			"usage: vxu4-probe PROBE N (N from 1 to 100000000) | vxu4-probe classes\n"
			"PROBE one of:");
		for (i = 0; i < ARRAY_SIZE(probes); i++)
			fprintf(stderr, " %s", probes[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	warm = n / 10 ? n / 10 : 1;
	page_size = sysconf(_SC_PAGESIZE);
	zero_fd = open("/dev/zero", O_RDONLY);
	null_fd = open("/dev/null", O_WRONLY);
	if (zero_fd < 0 || null_fd < 0)
		die("/dev/zero, /dev/null");

	if (!strcmp(p->name, "sigcatch")) {
		struct sigaction sa = { .sa_handler = on_usr1 };

		if (sigaction(SIGUSR1, &sa, NULL))
			die("sigaction");
	} else if (!strcmp(p->name, "pagefault")) {
		fault_setup(warm + n);
	} else if (!strcmp(p->name, "pipe")) {
		partner_start(warm + n, 1);
	} else if (!strcmp(p->name, "ctx")) {
		work_bytes = CTX_BYTES;
		partner_start(warm + n, 1);
		work_setup();
	} else if (!strcmp(p->name, "ub-ctx")) {
		partner_start(warm + n, sizeof(int));
	} else if (!strcmp(p->name, "ub-pipe")) {
		partner_size = 512;
		if (pipe(self_pipe))
			die("pipe");
	} else if (!strcmp(p->name, "memcpy")) {
		copy_src = malloc(MEMCPY_BYTES);
		copy_dst = malloc(MEMCPY_BYTES);
		if (!copy_src || !copy_dst)
			die("malloc");
		memset(copy_src, 1, MEMCPY_BYTES);
		memset(copy_dst, 2, MEMCPY_BYTES);
	} else if (!strcmp(p->name, "lat-l1") || !strcmp(p->name, "lat-16m")) {
		chase_setup(!strcmp(p->name, "lat-l1") ? 4096 : 16UL << 20);
		/* Each operation is 1000 dependent loads. */
		per = 1000;
	}

	if (per > 1) {
		unsigned long loads = n;

		p_chase(warm * per);
		ns = measure(p_chase, loads * per, a7, a15, &classes, spd);
		n = loads * per;
	} else {
		p->run(warm);
		ns = measure(p->run, n, a7, a15, &classes, spd);
	}
	if (p->run == p_round_trip)
		partner_end();

	if (!strcmp(p->name, "ctx")) {
		/*
		 * Half a round trip, less one write and one read of a byte
		 * and one pass of the working set in one process: what the
		 * switch itself costs, the working set's refill included.
		 */
		uint64_t s7[NR_COUNTS], s15[NR_COUNTS];
		bool sc;
		double self_ns;
		int k;

		partner_size = 1;
		if (pipe(self_pipe))
			die("pipe");
		p_self_pipe(warm);
		self_ns = measure(p_self_pipe, n, s7, s15, &sc, self_spd);
		ns = ns / 2 - self_ns;
		for (k = 0; k < NR_COUNTS && classes && sc; k++) {
			/* Per switch: half of a round trip's, less the pipe's. */
			a7[k] = a7[k] / 2 > s7[k] ? a7[k] / 2 - s7[k] : 0;
			a15[k] = a15[k] / 2 > s15[k] ? a15[k] / 2 - s15[k] : 0;
		}
		classes = classes && sc;
	}

	printf("ns_per_op=%.1f ops=%lu", ns, n);
	/* The main measurement's, not the ctx probe's pipe in one process. */
	for (i = 0; i < NR_SPEED; i++) {
		if (spd[2 * i] >= 0)
			printf(" %s_a7=%.1f %s_a15=%.1f", speed_counters[i], spd[2 * i],
			       speed_counters[i], spd[2 * i + 1]);
	}
	if (!strcmp(p->name, "memcpy"))
		printf(" mb_s=%.1f", ns > 0 ? MEMCPY_BYTES * 1e3 / ns : -1.0);
	if (classes) {
		print_counts("a7", zero, a7, n);
		print_counts("a15", zero, a15, n);
	} else {
		printf(" a7=none a15=none");
	}
	printf("\n");
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vxu4-probe: standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
