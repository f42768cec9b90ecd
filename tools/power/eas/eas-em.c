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

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void print_notes(const struct em_model *m)
{
	int i;

	for (i = 0; i < m->nr_notes; i++)
		fprintf(stderr, "%s: note: %s\n", progname, m->notes[i]);
}

static const char *pd_flags_names(uint32_t flags)
{
	switch (flags) {
	case EM_PERF_DOMAIN_MICROWATTS:
		return "MICROWATTS";
	case EM_PERF_DOMAIN_MICROWATTS | EM_PERF_DOMAIN_SKIP_INEFFICIENCIES:
		return "MICROWATTS|SKIP_INEFFICIENCIES";
	default:
		return "?";
	}
}

static void print_table(FILE *out, const struct em_model *m)
{
	char cpus[128];
	int k, i;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		em_cpulist(cpus, sizeof(cpus), pd->cpus);
		if (k)
			fputc('\n', out);
		fprintf(out,
			"perf domain %s: cpus %s, capacity %u, flags %#x (%s), %d perf states\n",
			pd->name, cpus, pd->capacity, pd->flags,
			pd_flags_names(pd->flags), pd->nr_states);
		fprintf(out, "%5s %10s %10s %11s %10s %11s\n", "state",
			"freq(kHz)", "power(uW)", "performance", "cost",
			"inefficient");
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];

			fprintf(out, "%5d %10u %10u %11u %10u %11u\n", i,
				ps->frequency, ps->power, ps->performance,
				ps->cost, ps->flags);
		}
	}
}

static int cmp_lines(const void *a, const void *b)
{
	/* LC_ALL=C sort: bytes compared as unsigned char, as strcmp() does */
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int print_debugfs(FILE *out, const struct em_model *m)
{
	static const char * const files[] = {
		"frequency", "power", "cost", "performance", "inefficient",
	};
	char **lines, cpus[128];
	int nr = 0, max = 0, k, i, f, ret = 0;

	for (k = 0; k < m->nr_pds; k++)
		max += 2 + 5 * m->pd[k].nr_states;
	lines = calloc(max, sizeof(*lines));
	if (!lines)
		return -1;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		em_cpulist(cpus, sizeof(cpus), pd->cpus);
		if (asprintf(&lines[nr++], "energy_model/%s/cpus %s",
			     pd->name, cpus) < 0)
			goto oom;
		/* "%#lx" prints 0 as "0" */
		if (asprintf(&lines[nr++], "energy_model/%s/flags %#x",
			     pd->name, pd->flags) < 0)
			goto oom;
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];
			const uint32_t val[] = {
				ps->frequency, ps->power, ps->cost,
				ps->performance, ps->flags,
			};

			for (f = 0; f < 5; f++)
				if (asprintf(&lines[nr++],
					     "energy_model/%s/ps:%u/%s %u",
					     pd->name, ps->frequency, files[f],
					     val[f]) < 0)
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
	int k, i, cpu;

	fprintf(out, "{\n  \"perf_domains\": [");
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];
		const char *sep = "";

		fprintf(out, "%s\n    {\n      \"name\": \"%s\",\n      \"cpus\": [",
			k ? "," : "", pd->name);
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
	fprintf(out, "\n  ]\n}\n");
}

static void compute_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s compute [--format=table|debugfs|json] [--boot-freq=SPEC] FILE.dtb\n"
		"\n"
		"Print the Energy Model that Linux 6.12 on arm32 builds from FILE.dtb,\n"
		"computed with the kernel's own integer arithmetic: one perf domain per\n"
		"cpufreq-dt policy (CPUs sharing an opp-shared OPP table), CPU capacity\n"
		"from capacity-dmips-mhz and each CPU's top OPP, and per OPP\n"
		"  power       = coeff * mV^2 * MHz / 1000000 uW (dynamic-power-coefficient\n"
		"                of the domain's first CPU; or opp-microwatt if the lowest\n"
		"                OPP has it)\n"
		"  performance = capacity * kHz / max kHz\n"
		"  cost        = 10 * power / performance (32-bit unsigned long)\n"
		"  inefficient = cost not below the cost of a faster state\n"
		"CPUs are numbered in /cpus order, the first one being the boot CPU.\n"
		"\n"
		"Options:\n"
		"  -f, --format=FORMAT  table: for people (default)\n"
		"                       debugfs: one line \"energy_model/<pd>/<file> <value>\"\n"
		"                         per file of /sys/kernel/debug/energy_model, in\n"
		"                         LC_ALL=C sort order\n"
		"                       json: {\"perf_domains\": [{\"name\", \"cpus\", \"capacity\",\n"
		"                         \"flags\", \"states\": [{\"frequency_khz\", \"power_uw\",\n"
		"                         \"performance\", \"cost\", \"inefficient\"}]}]}\n"
		"  -j, --json           same as --format=json\n"
		"  -b, --boot-freq=SPEC the CPU clock rates when arm32 first reads the\n"
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
		"kernel builds no EM from FILE or bad usage; a one-line message names the\n"
		"file, node and property, what the kernel does, and the fix.\n",
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

static int cmd_compute(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format",	required_argument,	NULL, 'f' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "boot-freq",	required_argument,	NULL, 'b' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	enum em_format format = FORMAT_TABLE;
	struct em_options opt = { };
	struct em_model *m;
	char *buf = NULL;
	size_t size = 0;
	int c, ret;
	FILE *out;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:jb:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (format = 0; format <= FORMAT_JSON; format++)
				if (!strcmp(optarg, format_names[format]))
					break;
			if (format > FORMAT_JSON) {
				fprintf(stderr,
					"%s: compute: unknown format '%s': want table, debugfs or json\n",
					progname, optarg);
				return EXIT_BAD;
			}
			break;
		case 'j':
			format = FORMAT_JSON;
			break;
		case 'b':
			if (parse_boot_freq(optarg, &opt))
				return EXIT_BAD;
			break;
		case 'h':
			compute_usage(stdout);
			return EXIT_OK;
		default:
			fprintf(stderr,
				"%s: compute: bad option or missing argument: '%s'\nTry '%s compute --help'.\n",
				progname, argv[optind - 1], progname);
			return EXIT_BAD;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "%s: compute: %s\nTry '%s compute --help'.\n",
			progname, argc == optind ? "no DTB given" :
			"one DTB only", progname);
		return EXIT_BAD;
	}

	m = malloc(sizeof(*m));
	if (!m) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return EXIT_BAD;
	}
	if (em_model_load(m, argv[optind], &opt)) {
		/* one line: the notes are about an EM that is not there */
		fprintf(stderr, "%s: %s\n", progname, m->error);
		em_model_free(m);
		free(m);
		return EXIT_BAD;
	}
	print_notes(m);

	/* all or nothing on stdout */
	ret = EXIT_BAD;
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
	em_model_free(m);
	free(m);
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
		"Energy-Aware Scheduling tools for Linux 6.12 on arm32 (Odroid-XU3/XU4).\n"
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
