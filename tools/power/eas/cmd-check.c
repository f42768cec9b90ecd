// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em check: what the kernel will do with a DTB's EM and EAS, and the fixes
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eas-em.h"

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
		"or all CPUs (and the arm32/arm64 fall back), 0, overflowing, or a\n"
		"capacity above 1024; a coefficient out of a sane range, or LITTLE more\n"
		"power-hungry per MHz than big, or costlier in every state than big's\n"
		"cheapest; power above the kernel's limit; non-increasing frequencies;\n"
		"inefficient states and the frequencies schedutil will never use (only\n"
		"the top one, e.g. with one voltage for all OPPs);\n"
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

static int cmd_check(int argc, char **argv)
{
	struct em_check_options copt = { };
	struct cmd_args a = { };
	struct em_model *m;
	char *buf = NULL;
	size_t size = 0;
	FILE *out;
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
	/* all or nothing on stdout */
	out = open_memstream(&buf, &size);
	if (!out) {
		fprintf(stderr, "%s: out of memory\n", progname);
		free_model(m);
		return EXIT_BAD;
	}
	ret = em_check(out, m, &copt) ? EXIT_CHECK : EXIT_OK;
	if (fclose(out)) {
		fprintf(stderr, "%s: out of memory\n", progname);
		ret = EXIT_BAD;
	} else if (write_stdout(buf, size)) {
		ret = EXIT_BAD;
	}
	free(buf);
	free_model(m);
	return ret;
}

/* The gnuplot program: $GNUPLOT, or gnuplot in $PATH */

const struct eas_em_command eas_em_check = {
	.name = "check",
	.fn = cmd_check,
	.usage = check_usage,
	.summary = "what the kernel will do with a DTB's EM and EAS, and the fixes",
};
