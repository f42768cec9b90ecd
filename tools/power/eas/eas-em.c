// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em - Energy-Aware Scheduling tools for Linux 6.12 on arm32
 *
 * eas-em compute FILE.dtb prints the Energy Model the kernel builds from a
 * device tree (cpufreq-dt performance domains, CPU capacities, power,
 * performance, cost, inefficient states), computed with the kernel's own
 * integer arithmetic: as a table, in the layout of
 * /sys/kernel/debug/energy_model, or as JSON.
 *
 * Exit status: 0 ok, 1 check failed, 2 bad input or usage.
 */

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfdt.h>

#include "em.h"

#define EXIT_OK		0
#define EXIT_CHECK	1
#define EXIT_BAD	2

#define EAS_EM_VERSION	"0.1"

static const char *progname = "eas-em";

enum em_format {
	FORMAT_TABLE,
	FORMAT_DEBUGFS,
	FORMAT_JSON,
};

static const char * const format_names[] = {
	[FORMAT_TABLE]		= "table",
	[FORMAT_DEBUGFS]	= "debugfs",
	[FORMAT_JSON]		= "json",
};

static int __printf(4, 5)
write_file(const char *dir, const char *sub, const char *file,
	   const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, file);
	f = fopen(path, "w");
	if (!f)
		return -1;
	va_start(ap, fmt);
	ret = vfprintf(f, fmt, ap) < 0;
	va_end(ap);
	if (fclose(f))
		ret = -1;
	return ret ? -1 : 0;
}

static void print_notes(const struct em_model *m)
{
	int i;

	for (i = 0; i < m->nr_notes; i++)
		fprintf(stderr, "%s: note: %s\n", progname, m->notes[i]);
}

static const char *pd_flags_names(uint32_t flags)
{
	switch (flags) {
	case 0:
		return "none";
	case EM_PERF_DOMAIN_MICROWATTS:
		return "MICROWATTS";
	case EM_PERF_DOMAIN_MICROWATTS | EM_PERF_DOMAIN_SKIP_INEFFICIENCIES:
		return "MICROWATTS|SKIP_INEFFICIENCIES";
	default:
		return "other";
	}
}

/**
 * struct em_summary - what the tables do not show at a glance
 * @complexity:	nr_pd * (nr_cpus + nr_perf_states), the v5.0-v6.6 measure
 * @little:	index of the perf domain of least capacity
 */
struct em_summary {
	unsigned int complexity;
	int little;
};

static uint32_t pd_min_cost(const struct em_pd *pd)
{
	uint32_t min = UINT32_MAX;
	int i;

	for (i = 0; i < pd->nr_states; i++)
		if (pd->states[i].cost < min)
			min = pd->states[i].cost;
	return min;
}

static uint32_t pd_top_power(const struct em_pd *pd)
{
	return pd->nr_states ? pd->states[pd->nr_states - 1].power : 0;
}

static void em_summarize(const struct em_model *m, struct em_summary *s)
{
	unsigned int cpus = 0, states = 0;
	int k;

	s->little = -1;
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (!pd->nr_states)
			continue;
		cpus += __builtin_popcount(pd->cpus);
		states += pd->nr_states;
		if (s->little < 0 || pd->capacity < m->pd[s->little].capacity)
			s->little = k;
	}
	s->complexity = (m->nr_pds - m->nr_failed) * (cpus + states);
}

static double ratio(uint32_t a, uint32_t b)
{
	return b ? (double)a / b : 0.0;
}

static void print_summary(FILE *out, const struct em_model *m)
{
	const struct em_pd *l;
	struct em_summary s;
	int k;

	em_summarize(m, &s);
	fprintf(out,
		"\nEM complexity %u: nr_pd * (nr_cpus + nr_perf_states); v5.0-v6.6 refused EAS above %d, 6.12 has no limit\n",
		s.complexity, EM_MAX_COMPLEXITY);
	if (s.little < 0)
		return;
	l = &m->pd[s.little];
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (k == s.little || !pd->nr_states)
			continue;
		fprintf(out,
			"%s vs %s: capacity %.2fx, power at the top state %.2fx, lowest cost %.2fx (energy per unit of work at the most efficient state)\n",
			pd->name, l->name, ratio(pd->capacity, l->capacity),
			ratio(pd_top_power(pd), pd_top_power(l)),
			ratio(pd_min_cost(pd), pd_min_cost(l)));
	}
}

static void print_table(FILE *out, const struct em_model *m)
{
	char cpus[128], perf[16], ineff[16];
	int k, i, n = 0;

	if (m->layout[0])
		fprintf(out, "%s: debugfs layout of %s\n\n", m->file, m->layout);
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (!pd->nr_states)
			continue;
		em_cpulist(cpus, sizeof(cpus), pd->cpus);
		if (n++)
			fputc('\n', out);
		fprintf(out, "perf domain %s: cpus %s, capacity %u", pd->name,
			cpus, pd->capacity);
		if (pd->have & EM_HAVE_FLAGS)
			fprintf(out, ", flags %#x (%s)", pd->flags,
				pd_flags_names(pd->flags));
		fprintf(out, ", %d perf states\n", pd->nr_states);
		fprintf(out, "%5s %10s %10s %11s %10s %11s\n", "state",
			"freq(kHz)", "power(uW)", "performance", "cost",
			"inefficient");
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];

			snprintf(perf, sizeof(perf), "%u", ps->performance);
			snprintf(ineff, sizeof(ineff), "%u", ps->flags);
			fprintf(out, "%5d %10u %10u %11s %10u %11s\n", i,
				ps->frequency, ps->power,
				pd->have & EM_HAVE_PERFORMANCE ? perf : "-",
				ps->cost,
				pd->have & EM_HAVE_INEFFICIENT ? ineff : "-");
		}
	}
	print_summary(out, m);
}

static int cmp_lines(const void *a, const void *b)
{
	/* LC_ALL=C sort: bytes compared as unsigned char, as strcmp() does */
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static const char * const state_files[] = {
	"frequency", "power", "cost", "performance", "inefficient",
};

static bool state_file_present(const struct em_pd *pd, int f)
{
	if (f == 3)
		return pd->have & EM_HAVE_PERFORMANCE;
	if (f == 4)
		return pd->have & EM_HAVE_INEFFICIENT;
	return true;
}

static uint32_t state_value(const struct em_state *ps, int f)
{
	const uint32_t val[] = {
		ps->frequency, ps->power, ps->cost, ps->performance, ps->flags,
	};

	return val[f];
}

static int print_debugfs(FILE *out, const struct em_model *m)
{
	char **lines, cpus[128];
	int nr = 0, max = 0, k, i, f, ret = 0;

	for (k = 0; k < m->nr_pds; k++)
		max += 2 + 5 * m->pd[k].nr_states;
	lines = calloc(max ? max : 1, sizeof(*lines));
	if (!lines)
		return -1;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (!pd->nr_states)
			continue;
		em_cpulist(cpus, sizeof(cpus), pd->cpus);
		if (asprintf(&lines[nr++], "energy_model/%s/cpus %s",
			     pd->name, cpus) < 0)
			goto oom;
		/* "%#lx" prints 0 as "0" */
		if ((pd->have & EM_HAVE_FLAGS) &&
		    asprintf(&lines[nr++], "energy_model/%s/flags %#x",
			     pd->name, pd->flags) < 0)
			goto oom;
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];

			for (f = 0; f < 5; f++)
				if (state_file_present(pd, f) &&
				    asprintf(&lines[nr++],
					     "energy_model/%s/ps:%u/%s %u",
					     pd->name, ps->frequency,
					     state_files[f],
					     state_value(ps, f)) < 0)
					goto oom;
		}
	}
	qsort(lines, nr, sizeof(*lines), cmp_lines);
	for (i = 0; i < nr; i++)
		fprintf(out, "%s\n", lines[i]);
	goto out;
oom:
	lines[--nr] = NULL;
	ret = -1;
out:
	for (i = 0; i < nr; i++)
		free(lines[i]);
	free(lines);
	return ret;
}

static void print_json(FILE *out, const struct em_model *m)
{
	struct em_summary s;
	const char *sep = "";
	int k, i, cpu, n = 0;

	em_summarize(m, &s);
	fprintf(out, "{\n  \"source\": \"%s\",\n  \"arch\": \"%s\",\n",
		m->fdt ? "dtb" : "debugfs",
		!m->fdt ? "unknown" : m->arch == EM_ARCH_ARM64 ? "arm64" : "arm");
	fprintf(out, "  \"complexity\": %u,\n  \"perf_domains\": [",
		s.complexity);
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (!pd->nr_states)
			continue;
		sep = "";
		fprintf(out, "%s\n    {\n      \"name\": \"%s\",\n      \"cpus\": [",
			n++ ? "," : "", pd->name);
		for (cpu = 0; cpu < EM_NR_CPUS; cpu++) {
			if (!(pd->cpus & (1U << cpu)))
				continue;
			fprintf(out, "%s%d", sep, cpu);
			sep = ", ";
		}
		fprintf(out,
			"],\n      \"capacity\": %u,\n      \"flags\": %u,\n      \"states\": [",
			pd->capacity, pd->flags);
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];

			fprintf(out,
				"%s\n        {\"frequency_khz\": %u, \"power_uw\": %u, \"performance\": %u, \"cost\": %u, \"inefficient\": %s}",
				i ? "," : "", ps->frequency, ps->power,
				ps->performance, ps->cost,
				ps->flags & EM_PERF_STATE_INEFFICIENT ?
				"true" : "false");
		}
		fprintf(out, "\n      ]\n    }");
	}
	fprintf(out, "\n  ],\n  \"ratios\": [");
	n = 0;
	for (k = 0; s.little >= 0 && k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k], *l = &m->pd[s.little];

		if (k == s.little || !pd->nr_states)
			continue;
		fprintf(out,
			"%s\n    {\"perf_domain\": \"%s\", \"reference\": \"%s\", \"capacity\": %.4f, \"top_power\": %.4f, \"min_cost\": %.4f}",
			n++ ? "," : "", pd->name, l->name,
			ratio(pd->capacity, l->capacity),
			ratio(pd_top_power(pd), pd_top_power(l)),
			ratio(pd_min_cost(pd), pd_min_cost(l)));
	}
	fprintf(out, "%s]\n}\n", n ? "\n  " : "");
}

/* Write the model as a debugfs-like tree under @dir */
static int write_tree(const struct em_model *m, const char *dir)
{
	char path[PATH_MAX], cpus[128];
	DIR *d;
	int k, i, f;

	if (mkdir(dir, 0755) && errno != EEXIST)
		goto err;
	d = opendir(dir);
	if (!d)
		goto err;
	for (struct dirent *de; (de = readdir(d));)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			fprintf(stderr,
				"%s: --tree: %s: not empty; fix: give a new or empty directory\n",
				progname, dir);
			return -1;
		}
	closedir(d);

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (!pd->nr_states)
			continue;
		em_cpulist(cpus, sizeof(cpus), pd->cpus);
		snprintf(path, sizeof(path), "%s/%s", dir, pd->name);
		if (mkdir(path, 0755))
			goto err_path;
		if (write_file(dir, pd->name, "cpus", "%s\n", cpus))
			goto err;
		if ((pd->have & EM_HAVE_FLAGS) &&
		    write_file(dir, pd->name, "flags", "%#x\n", pd->flags))
			goto err;
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];
			char sub[64];

			snprintf(sub, sizeof(sub), "%s/ps:%u", pd->name,
				 ps->frequency);
			snprintf(path, sizeof(path), "%s/%s", dir, sub);
			if (mkdir(path, 0755))
				goto err_path;
			for (f = 0; f < 5; f++)
				if (state_file_present(pd, f) &&
				    write_file(dir, sub, state_files[f], "%u\n",
					       state_value(ps, f)))
					goto err;
		}
	}
	return 0;
err_path:
	dir = path;
err:
	fprintf(stderr, "%s: --tree: %s: %s\n", progname, dir, strerror(errno));
	return -1;
}

#define DEBUGFS_EM	"/sys/kernel/debug/energy_model"

static void compute_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s compute [--format=table|debugfs|json] [--tree=DIR] [--arch=ARCH]\n"
		"                  [--boot-freq=SPEC] FILE.dtb\n"
		"\n"
		"Print the Energy Model that Linux 6.12 builds from FILE.dtb, computed with\n"
		"the kernel's own integer arithmetic: one perf domain per cpufreq-dt policy\n"
		"(CPUs sharing an opp-shared OPP table), CPU capacity from capacity-dmips-mhz\n"
		"and each CPU's top OPP, and per OPP\n"
		"  power       = coeff * mV^2 * MHz / 1000000 uW (dynamic-power-coefficient\n"
		"                of the domain's first CPU; or opp-microwatt if the lowest\n"
		"                OPP has it)\n"
		"  performance = capacity * kHz / max kHz\n"
		"  cost        = 10 * power / performance\n"
		"  inefficient = cost not below the cost of a faster state\n"
		"then the EM complexity and, for each perf domain against the one of least\n"
		"capacity, the ratios of capacity, top power and lowest cost.\n"
		"CPUs are numbered in /cpus order, the first one being the boot CPU.\n"
		"\n"
		"Options:\n"
		"  -f, --format=FORMAT  table: for people (default)\n"
		"                       debugfs: one line \"energy_model/<pd>/<file> <value>\"\n"
		"                         per file of /sys/kernel/debug/energy_model, in\n"
		"                         LC_ALL=C sort order\n"
		"                       json: {\"source\", \"arch\", \"complexity\",\n"
		"                         \"perf_domains\": [{\"name\", \"cpus\", \"capacity\",\n"
		"                         \"flags\", \"states\": [{\"frequency_khz\", \"power_uw\",\n"
		"                         \"performance\", \"cost\", \"inefficient\"}]}],\n"
		"                         \"ratios\": [{\"perf_domain\", \"reference\",\n"
		"                         \"capacity\", \"top_power\", \"min_cost\"}]}\n"
		"  -j, --json           same as --format=json\n"
		"  -t, --tree=DIR       also write the EM as debugfs files under DIR (new or\n"
		"                       empty), as DIR/<pd>/ps:<kHz>/<file>\n"
		"  -a, --arch=ARCH      arm (32-bit) or arm64; default: arm64 if a CPU is\n"
		"                       an ARMv8 core (cortex-a53, a57, a72, ...), else arm\n"
		"  -b, --boot-freq=SPEC the CPU clock rates when the kernel first reads the\n"
		"                       capacities: every perf domain but the last registers\n"
		"                       its EM with these early capacities, and the states\n"
		"                       then found inefficient stay so.\n"
		"                         max   each cluster at its top OPP (default; what\n"
		"                               the virtual board's cluster clocks do)\n"
		"                         none  no clock readable yet (provider not probed)\n"
		"                         cpuN=kHz[,cpuM=kHz...]  per perf domain, others max\n"
		"  -h, --help           show this help\n"
		"\n"
		"Notes on what the kernel does go to stderr. Exit status: 0 ok, 2 the\n"
		"kernel builds no EM from FILE (one line per perf domain names the file,\n"
		"node and property, what the kernel does, and the fix) or bad usage.\n",
		progname);
}

static void show_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s show [--format=table|debugfs|json] [--tree=DIR] [PATH]\n"
		"\n"
		"Print the Energy Model a running kernel shows in debugfs. PATH is the\n"
		"energy_model directory (default " DEBUGFS_EM "), a copy\n"
		"of it, or a file of \"energy_model/<pd>/<file> <value>\" lines (what\n"
		"'compute --format=debugfs' prints; lines may start with \"@em \", others\n"
		"are skipped, so a console log can be given as is).\n"
		"\n"
		"Reads the layouts of v5.0-v5.8 (pdN/cs:<kHz>), v5.9+ (<dev>/ps:<kHz>),\n"
		"v5.16+ (flags, inefficient) and v6.9+ (performance); what a layout lacks\n"
		"shows as \"-\". Options as for compute.\n"
		"\n"
		"Exit status: 0 ok; 2 with a message naming the file when debugfs is not\n"
		"mounted, a file is missing or unreadable, or a value is not a number.\n",
		progname);
}

static void diff_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s diff [--arch=ARCH] [--boot-freq=SPEC] A B\n"
		"\n"
		"Compare two Energy Models state by state. A and B are each a DTB (the EM\n"
		"compute gives), an energy_model directory, or a dump of one (see show).\n"
		"Perf domains are matched by their CPUs, states by frequency; a field is\n"
		"compared when both sides have it (old debugfs layouts lack some).\n"
		"\n"
		"Exit status: 0 same, 1 different (each difference on stdout), 2 bad\n"
		"input or usage.\n",
		progname);
}

static void check_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s check [--legacy] [--arch=ARCH] [--boot-freq=SPEC] FILE.dtb\n"
		"\n"
		"Say what Linux 6.12 will do with the EM and EAS of FILE.dtb, one line per\n"
		"finding: \"error\" (no EM, or EAS will not start), \"warning\" (it works,\n"
		"but probably not as meant) or \"info\"; each names the node and property,\n"
		"what the kernel does (with its message, if it prints one) and the fix.\n"
		"\n"
		"Checks: dynamic-power-coefficient missing (no EM, silently); OPPs without\n"
		"voltage (\"EM: invalid perf. state\"); capacity-dmips-mhz missing on some\n"
		"or all CPUs (and the arm32/arm64 fall back), 0, or overflowing; a\n"
		"coefficient out of a sane range, or LITTLE more power-hungry per MHz than\n"
		"big; power above the kernel's limit; non-increasing frequencies;\n"
		"inefficient states and the frequencies schedutil will never use;\n"
		"OPPs sharing a voltage; EAS eligibility with the reason (asymmetric\n"
		"capacities, one EM per cluster, CPUs per perf domain, SMT).\n"
		"\n"
		"  -l, --legacy   also report the state pairs kernels before v5.16 printed\n"
		"                 as \"hertz/watts ratio non-monotonically decreasing\"\n"
		"                 (mW powers, kHz / mW compared with integer division)\n"
		"\n"
		"Exit status: 0 no error or warning, 1 an error or warning, 2 the file is\n"
		"no readable DTB or bad usage.\n",
		progname);
}

static void plot_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s plot [--output=FILE.png] [--arch=ARCH] [--boot-freq=SPEC] SOURCE\n"
		"\n"
		"Draw power against performance for each perf domain of SOURCE (a DTB, an\n"
		"energy_model directory or a dump), inefficient states circled and\n"
		"labelled with their frequency, into a PNG with gnuplot (Debian package\n"
		"gnuplot-nox; GNUPLOT=path overrides the program).\n"
		"\n"
		"  -o, --output=FILE  the PNG (default: eas-em.png)\n"
		"\n"
		"Exit status: 0 ok, 2 bad input, usage, or gnuplot missing or failing.\n",
		progname);
}

static int parse_boot_freq(const char *arg, struct em_options *opt)
{
	char *spec, *tok, *save = NULL, *end;
	int ret = 0;

	if (!strcmp(arg, "max"))
		return 0;
	if (!strcmp(arg, "none")) {
		opt->boot_none = true;
		return 0;
	}
	spec = strdup(arg);
	if (!spec)
		return -1;
	for (tok = strtok_r(spec, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct em_boot_rate *r = &opt->boot_rates[opt->nr_boot_rates];
		unsigned long cpu, khz;

		if (strncmp(tok, "cpu", 3) || opt->nr_boot_rates == EM_NR_CPUS)
			goto bad;
		errno = 0;
		cpu = strtoul(tok + 3, &end, 10);
		if (end == tok + 3 || *end != '=' || cpu >= EM_NR_CPUS)
			goto bad;
		tok = end + 1;
		khz = strtoul(tok, &end, 10);
		if (end == tok || *end || errno || !khz || khz > UINT32_MAX)
			goto bad;
		r->cpu = cpu;
		r->khz = khz;
		opt->nr_boot_rates++;
	}
	if (opt->nr_boot_rates)
		goto out;
bad:
	fprintf(stderr,
		"%s: compute: bad --boot-freq '%s': want max, none or cpuN=kHz[,cpuM=kHz...]\n",
		progname, arg);
	ret = -1;
out:
	free(spec);
	return ret;
}

static int parse_arch(const char *cmd, const char *arg, struct em_options *opt)
{
	if (!strcmp(arg, "arm")) {
		opt->arch = EM_ARCH_ARM;
	} else if (!strcmp(arg, "arm64")) {
		opt->arch = EM_ARCH_ARM64;
	} else {
		fprintf(stderr, "%s: %s: unknown arch '%s': want arm or arm64\n",
			progname, cmd, arg);
		return -1;
	}
	return 0;
}

static bool is_dtb(const char *path)
{
	unsigned char magic[4];
	struct stat st;
	bool ret;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	ret = fread(magic, 1, 4, f) == 4 &&
	      fdt_magic(magic) == FDT_MAGIC;
	fclose(f);
	return ret;
}

/* A DTB, or a debugfs tree or dump; prints the error and returns -1 */
static int load_source(struct em_model *m, const char *path,
		       const struct em_options *opt, bool dtb)
{
	int k, ret;

	if (dtb || is_dtb(path))
		ret = em_model_load(m, path, opt);
	else
		ret = em_debugfs_load(m, path);
	if (!ret)
		return 0;
	if (m->nr_failed) {
		for (k = 0; k < m->nr_pds; k++)
			if (m->pd[k].error[0])
				fprintf(stderr, "%s: %s\n", progname,
					m->pd[k].error);
	} else {
		fprintf(stderr, "%s: %s\n", progname, m->error);
	}
	return -1;
}

static struct em_model *new_model(void)
{
	struct em_model *m = calloc(1, sizeof(*m));

	if (!m)
		fprintf(stderr, "%s: out of memory\n", progname);
	return m;
}

static void free_model(struct em_model *m)
{
	if (!m)
		return;
	em_model_free(m);
	free(m);
}

/* all or nothing on stdout */
static int output_model(const struct em_model *m, enum em_format format,
			const char *tree)
{
	char *buf = NULL;
	size_t size = 0;
	int ret = EXIT_BAD;
	FILE *out;

	if (tree && write_tree(m, tree))
		return EXIT_BAD;
	out = open_memstream(&buf, &size);
	if (out) {
		switch (format) {
		case FORMAT_TABLE:
			print_table(out, m);
			ret = EXIT_OK;
			break;
		case FORMAT_DEBUGFS:
			ret = print_debugfs(out, m) ? EXIT_BAD : EXIT_OK;
			break;
		case FORMAT_JSON:
			print_json(out, m);
			ret = EXIT_OK;
			break;
		}
		if (fclose(out))
			ret = EXIT_BAD;
	}
	if (ret == EXIT_OK &&
	    (fwrite(buf, 1, size, stdout) != size || fflush(stdout))) {
		fprintf(stderr, "%s: writing the output: %s\n", progname,
			strerror(errno));
		ret = EXIT_BAD;
	} else if (ret != EXIT_OK) {
		fprintf(stderr, "%s: out of memory\n", progname);
	}
	free(buf);
	return ret;
}

/* Options common to the commands; returns -1 to exit 2, 1 after --help */
struct cmd_args {
	enum em_format format;
	struct em_options opt;
	const char *tree;
	const char *output;
	bool legacy;
};

static int parse_args(const char *cmd, void (*usage)(FILE *out),
		      const char *allowed, int argc, char **argv,
		      struct cmd_args *a)
{
	static const struct option longopts[] = {
		{ "format",	required_argument,	NULL, 'f' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "tree",	required_argument,	NULL, 't' },
		{ "arch",	required_argument,	NULL, 'a' },
		{ "boot-freq",	required_argument,	NULL, 'b' },
		{ "legacy",	no_argument,		NULL, 'l' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:jt:a:b:lo:h", longopts,
				NULL)) != -1) {
		if (c != '?' && c != ':' && c != 'h' && !strchr(allowed, c)) {
			fprintf(stderr, "%s: %s: option '%s' does not apply\nTry '%s %s --help'.\n",
				progname, cmd, argv[optind - 1], progname, cmd);
			return -1;
		}
		switch (c) {
		case 'f':
			for (a->format = 0; a->format <= FORMAT_JSON; a->format++)
				if (!strcmp(optarg, format_names[a->format]))
					break;
			if (a->format > FORMAT_JSON) {
				fprintf(stderr,
					"%s: %s: unknown format '%s': want table, debugfs or json\n",
					progname, cmd, optarg);
				return -1;
			}
			break;
		case 'j':
			a->format = FORMAT_JSON;
			break;
		case 't':
			a->tree = optarg;
			break;
		case 'a':
			if (parse_arch(cmd, optarg, &a->opt))
				return -1;
			break;
		case 'b':
			if (parse_boot_freq(optarg, &a->opt))
				return -1;
			break;
		case 'l':
			a->legacy = true;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			fprintf(stderr,
				"%s: %s: bad option or missing argument: '%s'\nTry '%s %s --help'.\n",
				progname, cmd, argv[optind - 1], progname, cmd);
			return -1;
		}
	}
	return 0;
}

static int want_args(const char *cmd, int argc, int min, int max,
		     const char *what)
{
	if (argc - optind >= min && argc - optind <= max)
		return 0;
	fprintf(stderr, "%s: %s: %s %s\nTry '%s %s --help'.\n", progname, cmd,
		argc - optind < min ? "missing" : "too many arguments; want",
		what, progname, cmd);
	return -1;
}

static int cmd_compute(int argc, char **argv)
{
	struct cmd_args a = { };
	struct em_model *m;
	int ret;

	ret = parse_args("compute", compute_usage, "fjtab", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("compute", argc, 1, 1, "one DTB"))
		return EXIT_BAD;
	m = new_model();
	if (!m)
		return EXIT_BAD;
	if (load_source(m, argv[optind], &a.opt, true)) {
		free_model(m);
		return EXIT_BAD;
	}
	print_notes(m);
	ret = output_model(m, a.format, a.tree);
	free_model(m);
	return ret;
}

static int cmd_show(int argc, char **argv)
{
	struct cmd_args a = { };
	struct em_model *m;
	int ret;

	ret = parse_args("show", show_usage, "fjt", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("show", argc, 0, 1, "one energy_model directory or dump"))
		return EXIT_BAD;
	m = new_model();
	if (!m)
		return EXIT_BAD;
	if (load_source(m, optind < argc ? argv[optind] : DEBUGFS_EM, NULL,
			false) == 0) {
		print_notes(m);
		ret = output_model(m, a.format, a.tree);
	} else {
		ret = EXIT_BAD;
	}
	free_model(m);
	return ret;
}

static const struct em_pd *find_pd(const struct em_model *m, uint32_t cpus)
{
	int k;

	for (k = 0; k < m->nr_pds; k++)
		if (m->pd[k].nr_states && m->pd[k].cpus == cpus)
			return &m->pd[k];
	return NULL;
}

static const struct em_state *find_state(const struct em_pd *pd, uint32_t khz)
{
	int i;

	for (i = 0; i < pd->nr_states; i++)
		if (pd->states[i].frequency == khz)
			return &pd->states[i];
	return NULL;
}

/* One side's perf domains missing from the other */
static int diff_missing(const struct em_model *x, const struct em_model *y,
			const char *side)
{
	char cpus[128];
	int k, n = 0;

	for (k = 0; k < x->nr_pds; k++) {
		const struct em_pd *pd = &x->pd[k];

		if (!pd->nr_states || find_pd(y, pd->cpus))
			continue;
		em_cpulist(cpus, sizeof(cpus), pd->cpus);
		printf("pd %s (cpus %s): only in %s\n", pd->name, cpus, side);
		n++;
	}
	return n;
}

static int diff_models(const struct em_model *a, const struct em_model *b)
{
	int k, i, f, n = 0, states = 0, pds = 0;
	char cpus[128];

	n += diff_missing(a, b, "A");
	n += diff_missing(b, a, "B");
	for (k = 0; k < a->nr_pds; k++) {
		const struct em_pd *pa = &a->pd[k], *pb;
		unsigned int have;

		pb = pa->nr_states ? find_pd(b, pa->cpus) : NULL;
		if (!pb)
			continue;
		pds++;
		have = pa->have & pb->have;
		em_cpulist(cpus, sizeof(cpus), pa->cpus);
		if ((have & EM_HAVE_FLAGS) && pa->flags != pb->flags) {
			printf("pd %s (cpus %s): flags: %#x != %#x\n", pa->name,
			       cpus, pa->flags, pb->flags);
			n++;
		}
		for (i = 0; i < pa->nr_states; i++) {
			const struct em_state *sa = &pa->states[i], *sb;

			sb = find_state(pb, sa->frequency);
			if (!sb) {
				printf("pd %s: ps:%u: only in A\n", pa->name,
				       sa->frequency);
				n++;
				continue;
			}
			states++;
			for (f = 1; f < 5; f++) {
				if (!state_file_present(pa, f) ||
				    !state_file_present(pb, f) ||
				    state_value(sa, f) == state_value(sb, f))
					continue;
				printf("pd %s: ps:%u: %s: %u != %u\n", pa->name,
				       sa->frequency, state_files[f],
				       state_value(sa, f), state_value(sb, f));
				n++;
			}
		}
		for (i = 0; i < pb->nr_states; i++)
			if (!find_state(pa, pb->states[i].frequency)) {
				printf("pd %s: ps:%u: only in B\n", pb->name,
				       pb->states[i].frequency);
				n++;
			}
	}
	if (!n)
		printf("same: %d perf domains, %d perf states\n", pds, states);
	else
		printf("%d difference%s\n", n, n == 1 ? "" : "s");
	return n;
}

static int cmd_diff(int argc, char **argv)
{
	struct em_model *a = NULL, *b = NULL;
	struct cmd_args args = { };
	int ret;

	ret = parse_args("diff", diff_usage, "ab", argc, argv, &args);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("diff", argc, 2, 2, "two EMs (DTB, directory or dump)"))
		return EXIT_BAD;
	ret = EXIT_BAD;
	a = new_model();
	b = a ? new_model() : NULL;
	if (b && !load_source(a, argv[optind], &args.opt, false) &&
	    !load_source(b, argv[optind + 1], &args.opt, false)) {
		printf("--- A %s\n+++ B %s\n", argv[optind], argv[optind + 1]);
		ret = diff_models(a, b) ? EXIT_CHECK : EXIT_OK;
	}
	free_model(a);
	free_model(b);
	return ret;
}

static int cmd_check(int argc, char **argv)
{
	struct em_check_options copt = { };
	struct cmd_args a = { };
	struct em_model *m;
	int ret;

	ret = parse_args("check", check_usage, "lab", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("check", argc, 1, 1, "one DTB"))
		return EXIT_BAD;
	m = new_model();
	if (!m)
		return EXIT_BAD;
	em_model_load(m, argv[optind], &a.opt);
	if (m->bad_file) {
		fprintf(stderr, "%s: %s\n", progname, m->error);
		free_model(m);
		return EXIT_BAD;
	}
	copt.legacy = a.legacy;
	ret = em_check(stdout, m, &copt) ? EXIT_CHECK : EXIT_OK;
	if (fflush(stdout))
		ret = EXIT_BAD;
	free_model(m);
	return ret;
}

/* The gnuplot program: $GNUPLOT, or gnuplot in $PATH */
static char *find_gnuplot(void)
{
	const char *env = getenv("GNUPLOT"), *path = getenv("PATH");
	char *dirs, *dir, *save = NULL, *found = NULL;

	if (env && *env)
		return access(env, X_OK) ? NULL : strdup(env);
	dirs = strdup(path ? path : "/usr/bin:/bin");
	for (dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		if (asprintf(&found, "%s/gnuplot", dir) < 0) {
			found = NULL;
			break;
		}
		if (access(found, X_OK)) {
			free(found);
			found = NULL;
		}
	}
	free(dirs);
	return found;
}

static void plot_pd(FILE *g, const struct em_pd *pd)
{
	char cpus[128];
	int i, pass;

	em_cpulist(cpus, sizeof(cpus), pd->cpus);
	fprintf(g,
		"set title \"perf domain %s: cpus %s, capacity %u, %d perf states\" noenhanced\n",
		pd->name, cpus, pd->capacity, pd->nr_states);
	fprintf(g,
		"plot '-' using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#1f77b4' title 'perf state'");
	fprintf(g,
		", '-' using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb 'red' title 'inefficient: schedutil never uses it'");
	fprintf(g,
		", '-' using 1:2:3 with labels left offset 1.2,-0.6 font ',9' tc rgb 'red' notitle\n");
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];
			/* old layouts lack performance: frequency then */
			double x = pd->have & EM_HAVE_PERFORMANCE ?
				   ps->performance : ps->frequency / 1000.0;

			if (pass && !(ps->flags & EM_PERF_STATE_INEFFICIENT))
				continue;
			fprintf(g, "%g %g", x, ps->power / 1000.0);
			if (pass == 2)
				fprintf(g, " \"%u MHz\"", ps->frequency / 1000);
			fprintf(g, "\n");
		}
		/* a block may not be empty: an invisible point */
		if (pass)
			fprintf(g, "NaN NaN%s\n", pass == 2 ? " \"\"" : "");
		fprintf(g, "e\n");
	}
}

static void plot_script(FILE *g, const struct em_model *m, const char *png)
{
	int k, n = 0;

	for (k = 0; k < m->nr_pds; k++)
		n += m->pd[k].nr_states > 0;
	fprintf(g, "set terminal pngcairo size 1000,%d font ',11'\n",
		80 + 420 * n);
	fprintf(g, "set output '%s'\n", png);
	fprintf(g,
		"set multiplot layout %d,1 title \"Energy Model of %s: power against performance\" noenhanced\n",
		n, m->file);
	fprintf(g, "set xlabel '%s'\n",
		m->pd[0].have & EM_HAVE_PERFORMANCE ?
		"performance (capacity units; 1024 = biggest CPU at its top frequency)" :
		"frequency (MHz)");
	fprintf(g, "set ylabel 'power of one CPU (mW)'\n");
	fprintf(g,
		"set key top left box opaque\nset grid\nset xrange [0:*]\nset yrange [0:*]\nset offsets 0, graph 0.08, graph 0.08, 0\n");
	for (k = 0; k < m->nr_pds; k++)
		if (m->pd[k].nr_states)
			plot_pd(g, &m->pd[k]);
	fprintf(g, "unset multiplot\n");
}

static int cmd_plot(int argc, char **argv)
{
	struct cmd_args a = { .output = "eas-em.png" };
	unsigned char magic[8];
	struct em_model *m;
	char *gnuplot, *cmd;
	int ret, status;
	FILE *g;

	ret = parse_args("plot", plot_usage, "oab", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("plot", argc, 1, 1, "one DTB, energy_model directory or dump"))
		return EXIT_BAD;
	if (strchr(a.output, '\'') || strchr(a.output, '\n')) {
		fprintf(stderr,
			"%s: plot: --output: no quote or newline in the file name, please\n",
			progname);
		return EXIT_BAD;
	}
	gnuplot = find_gnuplot();
	if (!gnuplot) {
		fprintf(stderr,
			"%s: plot: gnuplot not found (%s); fix: apt-get install gnuplot-nox\n",
			progname, getenv("GNUPLOT") && *getenv("GNUPLOT") ?
			"$GNUPLOT is not executable" : "not in $PATH");
		return EXIT_BAD;
	}
	m = new_model();
	if (!m || load_source(m, argv[optind], &a.opt, false)) {
		free(gnuplot);
		free_model(m);
		return EXIT_BAD;
	}
	ret = EXIT_BAD;
	unlink(a.output);
	if (asprintf(&cmd, "'%s' 2>&1", gnuplot) < 0)
		cmd = NULL;
	g = cmd ? popen(cmd, "w") : NULL;
	if (g) {
		plot_script(g, m, a.output);
		status = pclose(g);
		g = fopen(a.output, "rb");
		if (WIFEXITED(status) && !WEXITSTATUS(status) && g &&
		    fread(magic, 1, 8, g) == 8 && !memcmp(magic, "\x89PNG", 4))
			ret = EXIT_OK;
		else
			fprintf(stderr, "%s: plot: %s failed to write %s (status %d)\n",
				progname, gnuplot, a.output, status);
		if (g)
			fclose(g);
	} else {
		fprintf(stderr, "%s: plot: cannot run %s: %s\n", progname,
			gnuplot, strerror(errno));
	}
	if (ret == EXIT_OK)
		printf("%s\n", a.output);
	free(cmd);
	free(gnuplot);
	free_model(m);
	return ret;
}

static int cmd_help(int argc, char **argv);

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	void (*usage)(FILE *out);
	const char *summary;
} commands[] = {
	{ "compute", cmd_compute, compute_usage,
	  "the Energy Model Linux 6.12 builds from a DTB" },
	{ "show", cmd_show, show_usage,
	  "the Energy Model of a running kernel, from debugfs" },
	{ "diff", cmd_diff, diff_usage,
	  "compare two Energy Models (DTB, debugfs), state by state" },
	{ "check", cmd_check, check_usage,
	  "what the kernel will do with a DTB's EM and EAS, and the fixes" },
	{ "plot", cmd_plot, plot_usage,
	  "a PNG of power against performance (gnuplot)" },
	{ "help", cmd_help, NULL, "the help of a command" },
};

#define NR_COMMANDS	((int)ARRAY_SIZE(commands))

static const struct cmd *find_command(const char *name)
{
	int i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_usage(FILE *out)
{
	int i;

	fprintf(out,
		"Usage: %s [--help] [--version] COMMAND [ARGS]\n"
		"\n"
		"Energy Model and Energy-Aware Scheduling tools for Linux 6.12 (arm, arm64).\n"
		"\n"
		"Commands:\n", progname);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out,
		"\n"
		"'%s COMMAND --help' tells more.\n"
		"Exit status: 0 ok, 1 check failed, 2 bad input or usage.\n",
		progname);
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc < 2) {
		print_usage(stdout);
		return EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd || !cmd->usage) {
		fprintf(stderr, "%s: help: no command '%s'\n", progname, argv[1]);
		return EXIT_BAD;
	}
	cmd->usage(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_BAD;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s (Linux 6.12 arm32 Energy Model)\n", progname,
		       EAS_EM_VERSION);
		return EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "%s: unknown command '%s'\nTry '%s --help'.\n",
			progname, argv[1], progname);
		return EXIT_BAD;
	}
	return cmd->fn(argc - 1, argv + 1);
}
