// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em diff: two Energy Models (DTB, debugfs) compared state by state
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eas-em.h"

static void diff_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s diff [--arch=ARCH] [--boot-freq=SPEC] A B\n"
		"\n"
		"Compare two Energy Models state by state. A and B are each a DTB (the EM\n"
		"compute gives), an energy_model directory, or a dump of one (see show).\n"
		"Perf domains are matched by their CPUs, states by frequency; a field is\n"
		"compared when both sides have it (old debugfs layouts lack some). Power\n"
		"is compared in mW when one side is in mW (kernels before v5.19), not at\n"
		"all against an abstract scale; cost only when both sides use the same\n"
		"formula (10 * power / performance since v6.9, power * fmax / frequency\n"
		"before) and power unit. What is not compared is said on stdout.\n"
		"\n"
		"Exit status: 0 same, 1 different (each difference on stdout), 2 bad\n"
		"input or usage.\n",
		progname);
}

static const struct em_pd *find_pd(const struct em_model *m,
				   const struct em_cpumask *cpus)
{
	int k;

	for (k = 0; k < m->nr_pds; k++)
		if (m->pd[k].nr_states && em_cpus_equal(&m->pd[k].cpus, cpus))
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
static int diff_missing(FILE *out, const struct em_model *x,
			const struct em_model *y, const char *side)
{
	char cpus[EM_CPULIST_LEN];
	int k, n = 0;

	for (k = 0; k < x->nr_pds; k++) {
		const struct em_pd *pd = &x->pd[k];

		if (!pd->nr_states || find_pd(y, &pd->cpus))
			continue;
		em_cpulist(cpus, sizeof(cpus), &pd->cpus);
		fprintf(out, "pd %s (cpus %s): only in %s\n", pd->name, cpus, side);
		n++;
	}
	return n;
}

static int diff_models(FILE *out, const struct em_model *a,
		       const struct em_model *b)
{
	int k, i, f, n = 0, states = 0, pds = 0;
	char cpus[EM_CPULIST_LEN];

	n += diff_missing(out, a, b, "A");
	n += diff_missing(out, b, a, "B");
	for (k = 0; k < a->nr_pds; k++) {
		const struct em_pd *pa = &a->pd[k], *pb;
		bool same_power, same_cost;
		unsigned int have;

		pb = pa->nr_states ? find_pd(b, &pa->cpus) : NULL;
		if (!pb)
			continue;
		pds++;
		have = pa->have & pb->have;
		em_cpulist(cpus, sizeof(cpus), &pa->cpus);
		if ((have & EM_HAVE_FLAGS) && pa->flags != pb->flags) {
			fprintf(out, "pd %s (cpus %s): flags: %#x != %#x\n", pa->name,
				cpus, pa->flags, pb->flags);
			n++;
		}
		/*
		 * Power is compared in the coarser of two real units (mW
		 * truncated from uW, as kernels before v5.19 computed it);
		 * on an abstract scale only with the same scale. Cost only
		 * with the same formula and power unit.
		 */
		same_power = pa->unit == pb->unit ||
			     (pa->unit != EM_UNIT_ABSTRACT &&
			      pb->unit != EM_UNIT_ABSTRACT);
		same_cost = pa->unit == pb->unit && pa->cost == pb->cost;
		if (!same_power)
			fprintf(out, "pd %s: power: not compared: A in %s, B in %s\n",
				pa->name, em_unit_name(pa->unit),
				em_unit_name(pb->unit));
		else if (pa->unit != pb->unit)
			fprintf(out, "pd %s: power: A in %s, B in %s: compared in mW (uW / 1000)\n",
				pa->name, em_unit_name(pa->unit),
				em_unit_name(pb->unit));
		if (!same_cost)
			fprintf(out,
				"pd %s: cost: not compared: A %s, power in %s; B %s, power in %s\n",
				pa->name, em_cost_name(pa->cost),
				em_unit_name(pa->unit), em_cost_name(pb->cost),
				em_unit_name(pb->unit));
		for (i = 0; i < pa->nr_states; i++) {
			const struct em_state *sa = &pa->states[i], *sb;
			uint32_t va, vb;

			sb = find_state(pb, sa->frequency);
			if (!sb) {
				fprintf(out, "pd %s: ps:%u: only in A\n", pa->name,
					sa->frequency);
				n++;
				continue;
			}
			states++;
			for (f = 1; f < 5; f++) {
				if (!state_file_present(pa, f) ||
				    !state_file_present(pb, f) ||
				    (f == 1 && !same_power) ||
				    (f == 2 && !same_cost))
					continue;
				va = state_value(sa, f);
				vb = state_value(sb, f);
				if (f == 1 && pa->unit != pb->unit) {
					va = pa->unit == EM_UNIT_UW ? va / 1000 : va;
					vb = pb->unit == EM_UNIT_UW ? vb / 1000 : vb;
				}
				if (va == vb)
					continue;
				fprintf(out, "pd %s: ps:%u: %s: %u != %u%s\n", pa->name,
					sa->frequency, state_files[f], va, vb,
					f == 1 && pa->unit != pb->unit ? " (mW)" : "");
				n++;
			}
		}
		for (i = 0; i < pb->nr_states; i++)
			if (!find_state(pa, pb->states[i].frequency)) {
				fprintf(out, "pd %s: ps:%u: only in B\n", pb->name,
					pb->states[i].frequency);
				n++;
			}
	}
	if (!n)
		fprintf(out, "same: %d perf domains, %d perf states\n", pds, states);
	else
		fprintf(out, "%d difference%s\n", n, n == 1 ? "" : "s");
	return n;
}

static int cmd_diff(int argc, char **argv)
{
	struct em_model *a = NULL, *b = NULL;
	struct cmd_args args = { };
	char *buf = NULL;
	size_t size = 0;
	FILE *out;
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
		/* all or nothing on stdout */
		out = open_memstream(&buf, &size);
		if (out) {
			fprintf(out, "--- A %s\n+++ B %s\n", argv[optind],
				argv[optind + 1]);
			ret = diff_models(out, a, b) ? EXIT_CHECK : EXIT_OK;
		}
		if (!out || fclose(out)) {
			fprintf(stderr, "%s: out of memory\n", progname);
			ret = EXIT_BAD;
		} else if (write_stdout(buf, size)) {
			ret = EXIT_BAD;
		}
		free(buf);
	}
	free_model(a);
	free_model(b);
	return ret;
}

const struct eas_em_command eas_em_diff = {
	.name = "diff",
	.fn = cmd_diff,
	.usage = diff_usage,
	.summary = "compare two Energy Models (DTB, debugfs), state by state",
};
