// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em: printing an Energy Model (table, debugfs layout, JSON, a debugfs
 * tree), all or nothing
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eas-em.h"

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

void print_notes(const struct em_model *m)
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
 * json_pd_head() - open a perf domain's JSON object: its name and CPUs
 * @out: the stream
 * @pd: the perf domain
 * @n: how many domains were printed before it (a comma parts them)
 *
 * Prints "{", "name" and the "cpus" list up to its closing "]": the
 * caller goes on with its own members.
 */
void json_pd_head(FILE *out, const struct em_pd *pd, int n)
{
	const char *sep = "";
	int cpu;

	fprintf(out, "%s\n    {\n      \"name\": \"%s\",\n      \"cpus\": [",
		n ? "," : "", pd->name);
	for (cpu = 0; cpu < EM_NR_CPUS; cpu++) {
		if (!em_cpu_test(&pd->cpus, cpu))
			continue;
		fprintf(out, "%s%d", sep, cpu);
		sep = ", ";
	}
	fputc(']', out);
}

/**
 * struct em_summary - what the tables do not show at a glance
 * @complexity:	nr_pd * (nr_cpus + nr_perf_states), the v5.0-v6.6 measure
 * @little:	index of the perf domain of least capacity (the first one
 *		when capacities are unknown, before v6.9)
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
		cpus += em_cpus_weight(&pd->cpus);
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

static const char * const why_unknown[] = {
	"no performance files before v6.9: capacities unknown, and costs (power * fmax / frequency) on each perf domain's own scale",
	"powers on different scales",
	"costs of different formulas or scales",
};

/* One ratio as text ("2.72x", "unknown") or JSON (2.7162, null) */
static void put_ratio(char *buf, bool json, bool known, uint32_t a, uint32_t b)
{
	if (!known)
		snprintf(buf, 16, "%s", json ? "null" : "unknown");
	else if (json)
		snprintf(buf, 16, "%.4f", ratio(a, b));
	else
		snprintf(buf, 16, "%.2fx", ratio(a, b));
}

/*
 * The ratios of @pd against the reference @l, as text ("2.72x" or
 * "unknown") into @cap, @power and @cost (16 bytes each), or JSON (a
 * number or null). Return why some are unknown, or NULL.
 *
 * Before v6.9 debugfs has no performance file: the capacities are
 * unknown, and the cost, power * fmax / frequency, is on each perf
 * domain's own scale (energy per unit of work is power / performance =
 * cost / capacity), so the costs of two domains cannot be compared.
 * Powers on two scales cannot be either.
 */
static const char *pd_ratios(const struct em_pd *pd, const struct em_pd *l,
			     bool json, char *cap, char *power, char *cost)
{
	bool known_cap = pd->have & l->have & EM_HAVE_PERFORMANCE;
	bool known_power = pd->unit == l->unit && pd_top_power(l);
	bool known_cost = known_cap && pd->cost == l->cost &&
			  known_power && pd_min_cost(l);

	put_ratio(cap, json, known_cap && l->capacity, pd->capacity,
		  l->capacity);
	put_ratio(power, json, known_power, pd_top_power(pd), pd_top_power(l));
	put_ratio(cost, json, known_cost, pd_min_cost(pd), pd_min_cost(l));
	if (!known_cap)
		return why_unknown[0];
	if (!known_power)
		return why_unknown[1];
	if (!known_cost)
		return why_unknown[2];
	return NULL;
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
		char cap[16], power[16], cost[16];
		const char *why;

		if (k == s.little || !pd->nr_states)
			continue;
		why = pd_ratios(pd, l, false, cap, power, cost);
		fprintf(out,
			"%s vs %s: capacity %s, power at the top state %s, lowest cost %s (energy per unit of work at the most efficient state)%s%s%s\n",
			pd->name, l->name, cap, power, cost,
			why ? " (unknown: " : "", why ? why : "",
			why ? ")" : "");
	}
}

static void print_table(FILE *out, const struct em_model *m)
{
	char cpus[EM_CPULIST_LEN], perf[16], ineff[16], unit[24];
	int k, i, n = 0;

	if (m->layout[0])
		fprintf(out, "%s: debugfs layout of %s: power in %s, cost = %s\n\n",
			m->file, m->layout,
			m->nr_pds ? em_unit_name(m->pd[0].unit) : "?",
			m->nr_pds ? em_cost_name(m->pd[0].cost) : "?");
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (!pd->nr_states)
			continue;
		em_cpulist(cpus, sizeof(cpus), &pd->cpus);
		if (n++)
			fputc('\n', out);
		fprintf(out, "perf domain %s: cpus %s, capacity ", pd->name,
			cpus);
		if (pd->have & EM_HAVE_PERFORMANCE)
			fprintf(out, "%u", pd->capacity);
		else
			fprintf(out, "unknown (no performance files before v6.9)");
		if (pd->have & EM_HAVE_FLAGS)
			fprintf(out, ", flags %#x (%s)", pd->flags,
				pd_flags_names(pd->flags));
		fprintf(out, ", %d perf states\n", pd->nr_states);
		snprintf(unit, sizeof(unit), "power(%s)", em_unit_name(pd->unit));
		fprintf(out, "%5s %10s %10s %11s %10s %11s\n", "state",
			"freq(kHz)", unit, "performance", "cost",
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

const char * const state_files[NR_STATE_FILES] = {
	"frequency", "power", "cost", "performance", "inefficient",
};

bool state_file_present(const struct em_pd *pd, int f)
{
	if (f == 3)
		return pd->have & EM_HAVE_PERFORMANCE;
	if (f == 4)
		return pd->have & EM_HAVE_INEFFICIENT;
	return true;
}

uint32_t state_value(const struct em_state *ps, int f)
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
		em_cpulist(cpus, sizeof(cpus), &pd->cpus);
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

/* A number, or null for a field the source did not have */
static const char *json_u32(char *buf, bool present, uint32_t val)
{
	if (!present)
		return "null";
	snprintf(buf, 16, "%u", val);
	return buf;
}

static void print_json(FILE *out, const struct em_model *m)
{
	char num[2][16];
	struct em_summary s;
	int k, i, n = 0;

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
		json_pd_head(out, pd, n++);
		fprintf(out,
			",\n      \"capacity\": %s,\n      \"flags\": %s,\n      \"power_unit\": \"%s\",\n      \"cost_formula\": \"%s\",\n      \"states\": [",
			json_u32(num[0], pd->have & EM_HAVE_PERFORMANCE, pd->capacity),
			json_u32(num[1], pd->have & EM_HAVE_FLAGS, pd->flags),
			em_unit_name(pd->unit), em_cost_name(pd->cost));
		for (i = 0; i < pd->nr_states; i++) {
			const struct em_state *ps = &pd->states[i];
			char uw[24];

			/* power_uw: null on an abstract scale; mW are exact in uW */
			if (pd->unit == EM_UNIT_ABSTRACT)
				snprintf(uw, sizeof(uw), "null");
			else
				snprintf(uw, sizeof(uw), "%llu",
					 (unsigned long long)ps->power *
					 (pd->unit == EM_UNIT_MW ? 1000 : 1));
			fprintf(out,
				"%s\n        {\"frequency_khz\": %u, \"power\": %u, \"power_uw\": %s, \"performance\": %s, \"cost\": %u, \"inefficient\": %s}",
				i ? "," : "", ps->frequency, ps->power, uw,
				json_u32(num[0], pd->have & EM_HAVE_PERFORMANCE,
					 ps->performance),
				ps->cost,
				!(pd->have & EM_HAVE_INEFFICIENT) ? "null" :
				ps->flags & EM_PERF_STATE_INEFFICIENT ?
				"true" : "false");
		}
		fprintf(out, "\n      ]\n    }");
	}
	fprintf(out, "\n  ],\n  \"ratios\": [");
	n = 0;
	for (k = 0; s.little >= 0 && k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k], *l = &m->pd[s.little];
		char cap[16], power[16], cost[16];
		const char *why;

		if (k == s.little || !pd->nr_states)
			continue;
		why = pd_ratios(pd, l, true, cap, power, cost);
		/* "unknown": why the nulls are null, only when some are */
		fprintf(out,
			"%s\n    {\"perf_domain\": \"%s\", \"reference\": \"%s\", \"capacity\": %s, \"top_power\": %s, \"min_cost\": %s%s%s%s}",
			n++ ? "," : "", pd->name, l->name, cap, power, cost,
			why ? ", \"unknown\": \"" : "", why ? why : "",
			why ? "\"" : "");
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
		em_cpulist(cpus, sizeof(cpus), &pd->cpus);
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

/**
 * write_stdout() - all of a text on stdout, or a message
 * @buf:	the text
 * @size:	its length
 *
 * Return: 0, or -1 after a message naming stdout (a full disk, a closed
 * pipe): the caller exits 2.
 */
int write_stdout(const char *buf, size_t size)
{
	if (fwrite(buf, 1, size, stdout) == size && !fflush(stdout) &&
	    !ferror(stdout))
		return 0;
	fprintf(stderr, "%s: writing to stdout: %s\n", progname,
		strerror(errno ? errno : EIO));
	return -1;
}

/* all or nothing on stdout */
int output_model(const struct em_model *m, enum em_format format,
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
	if (ret == EXIT_OK && write_stdout(buf, size))
		ret = EXIT_BAD;
	else if (ret != EXIT_OK)
		fprintf(stderr, "%s: out of memory\n", progname);
	free(buf);
	return ret;
}
