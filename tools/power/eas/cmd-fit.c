// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em fit: dynamic-power-coefficient from a rail's power at each OPP
 *
 * The sweep (eas-bench sweep on the board) gives, for one CPU of a cluster
 * at each OPP, the cluster rail's mean power with all its CPUs idle and
 * with that one CPU busy. Their difference is one CPU's dynamic power,
 * which drivers/opp/of.c models as
 *
 *	P(uW) = C * mV^2 * MHz / 10^6
 *
 * with the OPP's voltage from the DTB. C is the least-squares fit through
 * the origin over the OPPs: C = sum(x * y) / sum(x^2), x = mV^2 * MHz /
 * 10^6, y the measured dynamic power. The idle part is measured at each
 * OPP, not assumed: leakage and the idle CPUs' clock power change with
 * the voltage and frequency as much as the busy CPU's power does.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eas-em.h"

#define FDT_RUNNING	"/sys/firmware/fdt"
#define FIT_MAX_POINTS	1024

/**
 * struct fit_point - one OPP of the sweep
 * @line:	its line in the sweep file
 * @cpu:	the CPU that was busy
 * @khz:	the OPP's frequency
 * @idle_uw:	the rail's mean power, all the cluster's CPUs idle
 * @busy_uw:	the rail's mean power, @cpu busy
 * @mv:		the OPP's voltage (DTB), mV as the kernel rounds it
 * @x:		mV^2 * MHz / 10^6: the power of a coefficient of 1, uW
 * @pd:		the index of @cpu's perf domain
 */
struct fit_point {
	int line;
	int cpu;
	unsigned long khz;
	double idle_uw;
	double busy_uw;
	uint32_t mv;
	double x;
	int pd;
};

static void fit_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s fit [--json] SWEEP [FILE.dtb]\n"
		"\n"
		"Fit each cluster's dynamic-power-coefficient to a power sweep of its\n"
		"OPPs. SWEEP is what 'eas-bench sweep' writes on the board: lines\n"
		"\"@sweep cpu=N khz=F idle_uw=P0 busy_uw=P1 ...\" (the cluster rail's mean\n"
		"power at OPP F with every CPU idle, and with CPU N busy), closed by\n"
		"\"@sweep_end points=M\"; other lines are skipped, so a console log can be\n"
		"given as is. The OPPs' voltages come from FILE.dtb (default\n"
		FDT_RUNNING ", the DTB the running kernel booted with).\n"
		"\n"
		"The dynamic power of one CPU at an OPP is busy_uw - idle_uw (the idle\n"
		"part measured at the same OPP), modelled as the kernel does:\n"
		"  P(uW) = C * mV^2 * MHz / 10^6\n"
		"C is the least-squares fit through the origin. For each perf domain the\n"
		"table gives every OPP's measured and fitted dynamic power and the\n"
		"residual, the fit's RMS and largest residual, the DTB's coefficient\n"
		"and the DT line to use (C rounded).\n"
		"\n"
		"  -j, --json     the same as JSON\n"
		"\n"
		"Exit status: 0 ok; 2 with a message naming the file and line when SWEEP\n"
		"is unreadable, lacks its \"@sweep_end\" line or its points (a sweep cut\n"
		"short), has a value that is not a number or an OPP the DTB lacks, or\n"
		"no perf domain has two OPPs swept.\n",
		progname);
}

/* "key=" in the words of @s: its value (up to the next blank), or NULL */
static const char *kv_find(const char *s, const char *key, char *buf,
			   size_t len)
{
	size_t k = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key))) {
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') && p[k] == '=') {
			size_t n = strcspn(p + k + 1, " \t\r\n");

			if (n >= len)
				n = len - 1;
			memcpy(buf, p + k + 1, n);
			buf[n] = '\0';
			return buf;
		}
		p += k;
	}
	return NULL;
}

static int kv_num(const char *file, int line, const char *s, const char *key,
		  double *val)
{
	char buf[64], *end;

	if (!kv_find(s, key, buf, sizeof(buf))) {
		fprintf(stderr, "%s: fit: %s:%d: no %s= on this @sweep line\n",
			progname, file, line, key);
		return -1;
	}
	errno = 0;
	*val = strtod(buf, &end);
	if (end == buf || *end || errno || !isfinite(*val) || *val < 0) {
		fprintf(stderr,
			"%s: fit: %s:%d: %s=%s is not a number of 0 or more\n",
			progname, file, line, key, buf);
		return -1;
	}
	return 0;
}

/* The sweep's points; -1 after a message naming the file and line. */
static int read_sweep(const char *file, struct fit_point *pts, int *nr)
{
	char *s = NULL;
	size_t cap = 0;
	int line = 0, end_line = 0;
	double said = -1, v;
	FILE *f;

	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "%s: fit: %s: %s: run 'eas-bench sweep -o %s' on the board\n",
			progname, file, strerror(errno), file);
		return -1;
	}
	*nr = 0;
	while (getline(&s, &cap, f) > 0) {
		const char *p;

		line++;
		p = strstr(s, "@sweep");
		if (!p)
			continue;
		if (!strncmp(p, "@sweep_end", 10)) {
			if (kv_num(file, line, p, "points", &said))
				goto bad;
			end_line = line;
			continue;
		}
		if (strncmp(p, "@sweep ", 7))
			continue;
		if (end_line) {
			fprintf(stderr,
				"%s: fit: %s:%d: an @sweep line after @sweep_end (line %d): two sweeps in one file?\n",
				progname, file, line, end_line);
			goto bad;
		}
		if (*nr == FIT_MAX_POINTS) {
			fprintf(stderr, "%s: fit: %s:%d: more than %d points\n",
				progname, file, line, FIT_MAX_POINTS);
			goto bad;
		}
		pts[*nr].line = line;
		if (kv_num(file, line, p, "cpu", &v))
			goto bad;
		if (v >= EM_NR_CPUS || v != (int)v) {
			fprintf(stderr, "%s: fit: %s:%d: cpu=%g is no CPU number\n",
				progname, file, line, v);
			goto bad;
		}
		pts[*nr].cpu = v;
		if (kv_num(file, line, p, "khz", &v))
			goto bad;
		if (v < 1 || v > UINT32_MAX || v != (unsigned long)v) {
			fprintf(stderr, "%s: fit: %s:%d: khz=%g is no frequency in kHz\n",
				progname, file, line, v);
			goto bad;
		}
		pts[*nr].khz = v;
		if (kv_num(file, line, p, "idle_uw", &pts[*nr].idle_uw) ||
		    kv_num(file, line, p, "busy_uw", &pts[*nr].busy_uw))
			goto bad;
		(*nr)++;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: fit: %s: %s\n", progname, file,
			strerror(errno ? errno : EIO));
		goto bad;
	}
	if (!end_line) {
		fprintf(stderr,
			"%s: fit: %s: no \"@sweep_end\" line: the sweep was cut short (%d points read); run 'eas-bench sweep' again\n",
			progname, file, *nr);
		goto bad;
	}
	if (said != *nr) {
		fprintf(stderr,
			"%s: fit: %s:%d: @sweep_end says %g points, the file has %d: a broken sweep; run 'eas-bench sweep' again\n",
			progname, file, end_line, said, *nr);
		goto bad;
	}
	free(s);
	fclose(f);
	return 0;
bad:
	free(s);
	fclose(f);
	return -1;
}

/**
 * struct fit_pd - the fit of one perf domain
 * @nr:		its points
 * @coeff:	C, uW / (mV^2 MHz / 10^6)
 * @rms:	RMS of the relative residuals, %
 * @worst:	the point of the largest relative residual
 * @worst_pct:	that residual, %
 */
struct fit_pd {
	int nr;
	double coeff;
	double rms;
	int worst;
	double worst_pct;
};

static double residual_pct(const struct fit_point *p, double coeff)
{
	double model = coeff * p->x;

	return model > 0 ? (p->busy_uw - p->idle_uw - model) / model * 100 : 0;
}

static void fit_domain(const struct fit_point *pts, int nr, int k,
		       struct fit_pd *fp)
{
	double sxy = 0, sxx = 0, ss = 0, r;
	int i;

	memset(fp, 0, sizeof(*fp));
	fp->worst = -1;
	for (i = 0; i < nr; i++) {
		if (pts[i].pd != k)
			continue;
		fp->nr++;
		sxy += pts[i].x * (pts[i].busy_uw - pts[i].idle_uw);
		sxx += pts[i].x * pts[i].x;
	}
	if (fp->nr < 2 || sxx <= 0)
		return;
	fp->coeff = sxy / sxx;
	for (i = 0; i < nr; i++) {
		if (pts[i].pd != k)
			continue;
		r = residual_pct(&pts[i], fp->coeff);
		ss += r * r;
		if (fp->worst < 0 || fabs(r) > fabs(fp->worst_pct)) {
			fp->worst = i;
			fp->worst_pct = r;
		}
	}
	fp->rms = sqrt(ss / fp->nr);
}

static void print_fit_table(FILE *out, const struct em_model *m,
			    const struct fit_point *pts, int nr,
			    const struct fit_pd *fps)
{
	char list[EM_CPULIST_LEN];
	int k, i, n = 0;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];
		const struct fit_pd *fp = &fps[k];

		if (!fp->nr)
			continue;
		em_cpulist(list, sizeof(list), &pd->cpus);
		fprintf(out, "%sperf domain %s: cpus %s, %d OPPs swept\n",
			n++ ? "\n" : "", pd->name, list, fp->nr);
		if (fp->nr < 2) {
			fprintf(out, "  one OPP is no fit: sweep two or more\n");
			continue;
		}
		fprintf(out, "  %9s %6s %10s %10s %11s %11s %8s\n", "freq(kHz)",
			"mV", "idle(uW)", "busy(uW)", "dynamic(uW)",
			"fitted(uW)", "residual");
		for (i = 0; i < nr; i++) {
			if (pts[i].pd != k)
				continue;
			fprintf(out, "  %9lu %6u %10.0f %10.0f %11.0f %11.0f %+7.2f%%\n",
				pts[i].khz, pts[i].mv, pts[i].idle_uw,
				pts[i].busy_uw, pts[i].busy_uw - pts[i].idle_uw,
				fp->coeff * pts[i].x,
				residual_pct(&pts[i], fp->coeff));
		}
		fprintf(out,
			"  dynamic-power-coefficient %.2f (least squares through 0 of busy - idle = C * mV^2 * MHz / 10^6)\n",
			fp->coeff);
		fprintf(out, "  residuals: RMS %.2f%%, largest %+.2f%% at %lu kHz\n",
			fp->rms, fp->worst_pct, pts[fp->worst].khz);
		if (pd->coeff)
			fprintf(out, "  the DTB has %u: the fit is %+.1f%% of it\n",
				pd->coeff,
				(fp->coeff - pd->coeff) / pd->coeff * 100);
		else
			fprintf(out, "  the DTB has no dynamic-power-coefficient for these CPUs\n");
		fprintf(out, "  DT line (cpu nodes %s): dynamic-power-coefficient = <%.0f>;\n",
			list, fp->coeff > 0 ? round(fp->coeff) : 0.0);
	}
}

static void print_fit_json(FILE *out, const struct em_model *m,
			   const struct fit_point *pts, int nr,
			   const struct fit_pd *fps)
{
	int k, i, n = 0, np;

	fprintf(out, "{\n  \"perf_domains\": [");
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];
		const struct fit_pd *fp = &fps[k];

		if (fp->nr < 2)
			continue;
		json_pd_head(out, pd, n++);
		fprintf(out,
			",\n      \"coefficient\": %.4f,\n      \"dt_coefficient\": %.0f,\n      \"dtb_coefficient\": ",
			fp->coeff, fp->coeff > 0 ? round(fp->coeff) : 0.0);
		if (pd->coeff)
			fprintf(out, "%u", pd->coeff);
		else
			fprintf(out, "null");
		fprintf(out,
			",\n      \"rms_residual_percent\": %.4f,\n      \"max_residual_percent\": %.4f,\n      \"points\": [",
			fp->rms, fp->worst_pct);
		np = 0;
		for (i = 0; i < nr; i++) {
			if (pts[i].pd != k)
				continue;
			fprintf(out,
				"%s\n        {\"frequency_khz\": %lu, \"mv\": %u, \"idle_uw\": %.1f, \"busy_uw\": %.1f, \"dynamic_uw\": %.1f, \"fitted_uw\": %.1f, \"residual_percent\": %.4f}",
				np++ ? "," : "", pts[i].khz, pts[i].mv,
				pts[i].idle_uw, pts[i].busy_uw,
				pts[i].busy_uw - pts[i].idle_uw,
				fp->coeff * pts[i].x,
				residual_pct(&pts[i], fp->coeff));
		}
		fprintf(out, "\n      ]\n    }");
	}
	fprintf(out, "\n  ]\n}\n");
}

/* Each point's perf domain and OPP voltage; -1 after a message. */
static int match_points(const struct em_model *m, const char *sweep,
			const char *dtb, struct fit_point *pts, int nr)
{
	int i, k, o;

	for (i = 0; i < nr; i++) {
		struct fit_point *p = &pts[i];
		const struct em_pd *pd = NULL;

		for (k = 0; k < m->nr_pds; k++)
			if (em_cpu_test(&m->pd[k].cpus, p->cpu))
				break;
		if (k == m->nr_pds) {
			fprintf(stderr, "%s: fit: %s:%d: cpu%d has no cpufreq-dt OPP table in %s\n",
				progname, sweep, p->line, p->cpu, dtb);
			return -1;
		}
		pd = &m->pd[k];
		for (o = 0; o < pd->nr_opps; o++)
			if (pd->opps[o].rate / 1000 == p->khz)
				break;
		if (o == pd->nr_opps) {
			fprintf(stderr,
				"%s: fit: %s:%d: %lu kHz is no OPP of cpu%d in %s: was the sweep made on this board?\n",
				progname, sweep, p->line, p->khz, p->cpu, dtb);
			return -1;
		}
		p->pd = k;
		/* drivers/opp/of.c: mV and MHz, each truncated */
		p->mv = pd->opps[o].u_volt / 1000;
		if (!p->mv) {
			fprintf(stderr,
				"%s: fit: %s: the %lu kHz OPP of cpu%d has no opp-microvolt: no voltage to fit with\n",
				progname, dtb, p->khz, p->cpu);
			return -1;
		}
		p->x = (double)p->mv * p->mv * (pd->opps[o].rate / 1000000) / 1e6;
	}
	return 0;
}

/* By perf domain, then frequency: the tables' order */
static int cmp_points(const void *a, const void *b)
{
	const struct fit_point *p = a, *q = b;

	if (p->pd != q->pd)
		return p->pd < q->pd ? -1 : 1;
	return p->khz < q->khz ? -1 : p->khz > q->khz;
}

static int cmd_fit(int argc, char **argv)
{
	struct fit_pd fps[EM_NR_CPUS];
	struct cmd_args a = { };
	struct fit_point *pts;
	struct em_model *m;
	const char *sweep, *dtb;
	char *buf = NULL;
	size_t size = 0;
	int nr, k, ret = EXIT_BAD, fitted = 0;
	FILE *out;

	ret = parse_args("fit", fit_usage, "fj", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	ret = EXIT_BAD;
	if (a.format == FORMAT_DEBUGFS) {
		fprintf(stderr, "%s: fit: --format=debugfs does not apply: want table or json\n",
			progname);
		return EXIT_BAD;
	}
	if (want_args("fit", argc, 1, 2, "one sweep file and at most one DTB"))
		return EXIT_BAD;
	sweep = argv[optind];
	dtb = optind + 1 < argc ? argv[optind + 1] : FDT_RUNNING;
	pts = calloc(FIT_MAX_POINTS, sizeof(*pts));
	m = new_model();
	if (!pts || !m) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto out;
	}
	if (read_sweep(sweep, pts, &nr))
		goto out;
	em_model_load(m, dtb, &a.opt);
	if (m->bad_file) {
		fprintf(stderr, "%s: fit: %s\n", progname, m->error);
		goto out;
	}
	if (match_points(m, sweep, dtb, pts, nr))
		goto out;
	qsort(pts, nr, sizeof(*pts), cmp_points);
	for (k = 0; k < m->nr_pds; k++) {
		fit_domain(pts, nr, k, &fps[k]);
		if (fps[k].nr >= 2) {
			if (fps[k].coeff <= 0) {
				fprintf(stderr,
					"%s: fit: %s: perf domain %s: the busy CPU's power is at or below the idle power at every OPP: was the CPU busy, the rail the cluster's?\n",
					progname, sweep, m->pd[k].name);
				goto out;
			}
			fitted++;
		}
	}
	if (!fitted) {
		fprintf(stderr, "%s: fit: %s: no perf domain has two OPPs swept (%d points)\n",
			progname, sweep, nr);
		goto out;
	}
	/* all or nothing on stdout */
	out = open_memstream(&buf, &size);
	if (!out) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto out;
	}
	if (a.format == FORMAT_JSON)
		print_fit_json(out, m, pts, nr, fps);
	else
		print_fit_table(out, m, pts, nr, fps);
	if (fclose(out))
		fprintf(stderr, "%s: out of memory\n", progname);
	else if (!write_stdout(buf, size))
		ret = EXIT_OK;
	free(buf);
out:
	free(pts);
	free_model(m);
	return ret;
}

const struct eas_em_command eas_em_fit = {
	.name = "fit",
	.fn = cmd_fit,
	.usage = fit_usage,
	.summary = "fit dynamic-power-coefficient to a rail's power at each OPP",
};
