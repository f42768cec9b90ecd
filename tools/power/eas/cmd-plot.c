// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em plot: a PNG of power against performance (gnuplot)
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eas-em.h"

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
		"Exit status: 0 ok, 2 bad input, usage (--output a directory), or gnuplot\n"
		"missing or failing (its exit status said; its messages on stderr).\n",
		progname);
}

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
	char cpus[EM_CPULIST_LEN];
	int i, pass;

	em_cpulist(cpus, sizeof(cpus), &pd->cpus);
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

/* Why gnuplot failed, from pclose()'s STATUS, for the message */
static void plot_failed(const char *gnuplot, const char *png, int status)
{
	char why[96];

	if (status == -1)
		snprintf(why, sizeof(why), "cannot be waited for: %s",
			 strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		snprintf(why, sizeof(why), "exit status %d", WEXITSTATUS(status));
	else
		snprintf(why, sizeof(why), "exit status 0, but no PNG there");
	fprintf(stderr, "%s: plot: %s failed to write %s (%s)\n", progname,
		gnuplot, png, why);
}

static int cmd_plot(int argc, char **argv)
{
	struct cmd_args a = { .output = "eas-em.png" };
	unsigned char magic[8];
	struct em_model *m;
	char *gnuplot, *cmd;
	int ret, status;
	struct stat st;
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
	/* gnuplot would fail to open it, then draw on its stdout */
	if (!stat(a.output, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"%s: plot: --output=%s: a directory; fix: give the PNG's file name (e.g. %s/eas-em.png)\n",
			progname, a.output, a.output);
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
	/* its stdout is not ours: only the PNG's name goes there */
	if (asprintf(&cmd, "exec '%s' > /dev/null", gnuplot) < 0)
		cmd = NULL;
	g = cmd ? popen(cmd, "w") : NULL;
	if (g) {
		plot_script(g, m, a.output);
		status = pclose(g);
		g = fopen(a.output, "rb");
		if (status != -1 && WIFEXITED(status) && !WEXITSTATUS(status) &&
		    g && fread(magic, 1, 8, g) == 8 &&
		    !memcmp(magic, "\x89PNG", 4))
			ret = EXIT_OK;
		else
			plot_failed(gnuplot, a.output, status);
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

const struct eas_em_command eas_em_plot = {
	.name = "plot",
	.fn = cmd_plot,
	.usage = plot_usage,
	.summary = "a PNG of power against performance (gnuplot)",
};
