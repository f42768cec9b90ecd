// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em compute: the Energy Model Linux 6.12 builds from a DTB
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eas-em.h"

static void compute_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s compute [--format=table|debugfs|json] [--tree=DIR] [--arch=ARCH]\n"
		"                  [--boot-freq=SPEC] [--registered] FILE.dtb\n"
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
		"                         \"capacity\", \"top_power\", \"min_cost\"}]}; a ratio\n"
		"                         is null when unknown (debugfs before v6.9),\n"
		"                         and \"unknown\" then says why\n"
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
		"                               (one CPU of each domain named, each once)\n"
		"  -r, --registered     when the kernel registers an EM for some perf domains\n"
		"                       but not others, print those it registers (what its\n"
		"                       energy_model directory will hold) and exit 1; the\n"
		"                       others are named on stderr\n"
		"  -h, --help           show this help\n"
		"\n"
		"Notes on what the kernel does go to stderr. Exit status: 0 ok, 2 the\n"
		"kernel builds no EM from FILE (one line per perf domain names the file,\n"
		"node and property, what the kernel does, and the fix), arm32's\n"
		"capacities wrap 32 bits (capacity-dmips-mhz * kHz), or bad usage; 1\n"
		"with --registered when only some perf domains have an EM.\n",
		progname);
}

static int cmd_compute(int argc, char **argv)
{
	struct cmd_args a = { };
	struct em_model *m;
	int ret;

	ret = parse_args("compute", compute_usage, "fjtabr", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("compute", argc, 1, 1, "one DTB"))
		return EXIT_BAD;
	m = new_model();
	if (!m)
		return EXIT_BAD;
	if (load_source(m, argv[optind], &a.opt, true)) {
		/* Some perf domains without an EM: print the others if asked. */
		if (!a.registered || !m->nr_failed || m->nr_failed >= m->nr_pds) {
			free_model(m);
			return EXIT_BAD;
		}
		print_notes(m);
		ret = output_model(m, a.format, a.tree);
		free_model(m);
		return ret ? ret : EXIT_CHECK;
	}
	/* the kernel's capacities wrapped: an EM, but no right one */
	if (m->cap_wrap[0]) {
		fprintf(stderr, "%s: %s\n", progname, m->cap_wrap);
		free_model(m);
		return EXIT_BAD;
	}
	print_notes(m);
	ret = output_model(m, a.format, a.tree);
	free_model(m);
	return ret;
}

const struct eas_em_command eas_em_compute = {
	.name = "compute",
	.fn = cmd_compute,
	.usage = compute_usage,
	.summary = "the Energy Model Linux 6.12 builds from a DTB",
};
