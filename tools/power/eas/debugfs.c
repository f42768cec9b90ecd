// SPDX-License-Identifier: GPL-2.0
/*
 * The Energy Model of a running kernel, read from debugfs.
 *
 * kernel/power/energy_model.c has shown three layouts over time:
 *
 *   v5.0 - v5.8    energy_model/pdN/{cpus, cs:<kHz>/{frequency,power,cost}}
 *   v5.9 - v6.8    energy_model/<dev>/{cpus, ps:<kHz>/{frequency,power,cost}}
 *                  + ps:<kHz>/inefficient and <dev>/flags since v5.16
 *   v6.9 -         + ps:<kHz>/performance
 *
 * The tree is read from a directory, or from "path value" lines (as
 * 'eas-em compute --format=debugfs' prints them, or a shell loop over the
 * files does, optionally prefixed with "@em "), so that a dump taken on a
 * board or in a console log can be read on the host.
 *
 * Every problem is reported in m->error, naming the file, and -1 returned.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "em.h"

#define DEBUGFS_ROOT	"/sys/kernel/debug"
#define EM_MAX_LINES	200000
#define EM_MAX_STATES	1024
#define EM_VALUE_LEN	64

struct em_line {
	char *path;
	char *value;
};

/* A directory tree or a list of lines, read the same way */
struct em_src {
	const char *root;
	struct em_line *lines;
	int nr_lines;
};

static int __printf(2, 3) dfs_fail(struct em_model *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(m->error, sizeof(m->error), "%s: ", m->file);
	if (n < 0 || n >= (int)sizeof(m->error))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(m->error + n, sizeof(m->error) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * At most @max bytes of @in (of @len) as text for a message: printable
 * ASCII as is, a backslash doubled, any other byte as \xHH, and "..."
 * when cut. @out must hold 4 * @max + 4 bytes.
 */
static const char *esc(char *out, const char *in, size_t len, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	for (i = 0; i < len && i < max; i++) {
		unsigned char c = in[i];

		if (c == '\\') {
			out[n++] = '\\';
			out[n++] = '\\';
		} else if (c >= 0x20 && c < 0x7f) {
			out[n++] = c;
		} else {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
	}
	if (i < len)
		n += sprintf(out + n, "...");
	out[n] = '\0';
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct em_line *)a)->path,
		      ((const struct em_line *)b)->path);
}

static void free_names(char **names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

static int add_name(char ***names, int *nr, int *alloc, const char *s,
		    size_t len)
{
	char **tmp;

	if (*nr && strlen((*names)[*nr - 1]) == len &&
	    !strncmp((*names)[*nr - 1], s, len))
		return 0;
	if (*nr == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		tmp = realloc(*names, *alloc * sizeof(*tmp));
		if (!tmp)
			return -1;
		*names = tmp;
	}
	(*names)[*nr] = strndup(s, len);
	if (!(*names)[*nr])
		return -1;
	(*nr)++;
	return 0;
}

/*
 * The subdirectories of @rel ("" for the root), sorted. Return 0, or -1
 * with m->error set.
 */
static int src_list(struct em_model *m, struct em_src *s, const char *rel,
		    char ***names, int *nr)
{
	int alloc = 0, i;
	size_t rlen = strlen(rel);

	*names = NULL;
	*nr = 0;
	if (!s->root) {
		/* lines are sorted: the children come in order */
		for (i = 0; i < s->nr_lines; i++) {
			const char *p = s->lines[i].path, *slash;

			if (rlen) {
				if (strncmp(p, rel, rlen) || p[rlen] != '/')
					continue;
				p += rlen + 1;
			}
			slash = strchr(p, '/');
			if (!slash)
				continue;
			if (add_name(names, nr, &alloc, p, slash - p))
				goto oom;
		}
		return 0;
	}
	{
		char *dir;
		struct dirent *de;
		DIR *d;

		if (asprintf(&dir, "%s/%s", s->root, rel) < 0)
			goto oom;
		d = opendir(dir);
		if (!d) {
			dfs_fail(m, "%s: cannot list: %s", rel[0] ? rel : ".",
				 strerror(errno));
			free(dir);
			return -1;
		}
		while ((de = readdir(d))) {
			struct stat st;
			char *path;

			if (de->d_name[0] == '.')
				continue;
			if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
				break;
			if (!stat(path, &st) && S_ISDIR(st.st_mode) &&
			    add_name(names, nr, &alloc, de->d_name,
				     strlen(de->d_name))) {
				free(path);
				break;
			}
			free(path);
		}
		closedir(d);
		free(dir);
		qsort(*names, *nr, sizeof(**names), cmp_str);
		return 0;
	}
oom:
	free_names(*names, *nr);
	*names = NULL;
	*nr = 0;
	return dfs_fail(m, "out of memory");
}

/*
 * The text of file @rel, trailing white space removed. Return 1 if read,
 * 0 if the file does not exist, -1 on error (m->error set). Only a
 * regular file is read (a FIFO would block open() until a writer comes),
 * and at most @len - 1 bytes: a longer file is refused, never cut.
 */
static int src_read(struct em_model *m, struct em_src *s, const char *rel,
		    char *buf, size_t len)
{
	size_t n;

	if (!s->root) {
		struct em_line key = { .path = (char *)rel }, *l;

		l = bsearch(&key, s->lines, s->nr_lines, sizeof(*l), cmp_line);
		if (!l)
			return 0;
		if (strlen(l->value) >= len)
			return dfs_fail(m,
					"energy_model/%s: longer than %zu bytes; fix: a file of energy_model holds one number",
					rel, len - 1);
		snprintf(buf, len, "%s", l->value);
	} else {
		struct stat st = { 0 };
		char *path, c;
		ssize_t r;
		int fd;

		if (asprintf(&path, "%s/%s", s->root, rel) < 0)
			return dfs_fail(m, "out of memory");
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
		free(path);
		if (fd < 0 && errno == ENOENT)
			return 0;
		if (fd < 0)
			return dfs_fail(m, "%s: cannot open: %s%s", rel,
					strerror(errno),
					errno == EACCES ?
					"; fix: debugfs is for root, run eas-em as root" : "");
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			return dfs_fail(m,
					"%s: not a regular file (%s); fix: pass the energy_model directory, or a copy of it whose files are plain files",
					rel, em_file_type(st.st_mode));
		}
		r = read(fd, buf, len - 1);
		if (r == (ssize_t)len - 1 && read(fd, &c, 1) > 0) {
			close(fd);
			return dfs_fail(m,
					"%s: longer than %zu bytes; fix: a file of energy_model holds one number",
					rel, len - 1);
		}
		close(fd);
		if (r < 0)
			return dfs_fail(m, "%s: cannot read: %s", rel,
					strerror(errno));
		if (memchr(buf, '\0', r)) {
			char text[4 * 20 + 4];

			while (r && strchr(" \t\r\n", buf[r - 1]) && buf[r - 1])
				r--;
			return dfs_fail(m,
					"%s: '%s': a NUL byte, so not text; fix: a file of energy_model holds one number",
					rel, esc(text, buf, r, 20));
		}
		buf[r] = '\0';
	}
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
		     buf[n - 1] == '\r' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 1;
}

/* "%lu" or "%#lx": a number that fits 32 bits, nothing else */
static int parse_number(struct em_model *m, const char *rel, const char *text,
			uint32_t *val)
{
	unsigned long long v = 0;
	const char *p = text;
	int base = 10, digits = 0;
	char shown[4 * 20 + 4];

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (; *p; p++, digits++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		v = v * base + d;
		if (v > UINT32_MAX)
			return dfs_fail(m, "%s: '%s' is out of range (more than 32 bits)",
					rel, esc(shown, text, strlen(text), 20));
	}
	if (*p || !digits)
		return dfs_fail(m,
				"%s: '%s' is not a number; fix: a file of energy_model holds one decimal (or 0x hex) number",
				rel, esc(shown, text, strlen(text), 20));
	*val = v;
	return 0;
}

/* Read @rel as a number; @required: a missing file is an error */
static int read_number(struct em_model *m, struct em_src *s, const char *rel,
		       bool required, uint32_t *val, bool *present)
{
	char buf[EM_VALUE_LEN];
	int ret;

	ret = src_read(m, s, rel, buf, sizeof(buf));
	if (ret < 0)
		return -1;
	*present = ret;
	if (!ret)
		return required ? dfs_fail(m,
					   "%s: missing; fix: pass a whole energy_model tree (or dump)",
					   rel) : 0;
	return parse_number(m, rel, buf, val);
}

static int cmp_state(const void *a, const void *b)
{
	const struct em_state *x = a, *y = b;

	return x->frequency < y->frequency ? -1 : x->frequency > y->frequency;
}

/* The files of one ps:<kHz> directory */
static int read_state(struct em_model *m, struct em_src *s, const char *pd,
		      const char *dir, struct em_state *ps, unsigned int *have)
{
	static const struct {
		const char *file;
		size_t offset;
		unsigned int have;	/* 0: required */
	} files[] = {
		{ "frequency", offsetof(struct em_state, frequency), 0 },
		{ "power", offsetof(struct em_state, power), 0 },
		{ "cost", offsetof(struct em_state, cost), 0 },
		{ "performance", offsetof(struct em_state, performance),
		  EM_HAVE_PERFORMANCE },
		{ "inefficient", offsetof(struct em_state, flags),
		  EM_HAVE_INEFFICIENT },
	};
	char rel[320];
	unsigned int i;
	bool present;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(rel, sizeof(rel), "%s/%s/%s", pd, dir, files[i].file);
		if (read_number(m, s, rel, !files[i].have,
				(uint32_t *)((char *)ps + files[i].offset),
				&present))
			return -1;
		if (!present)
			*have &= ~files[i].have;
	}
	return 0;
}

static int read_pd(struct em_model *m, struct em_src *s, const char *name)
{
	struct em_pd *pd = &m->pd[m->nr_pds];
	char rel[256], buf[EM_CPULIST_LEN], shown[4 * 40 + 4], **dirs = NULL;
	int nr_dirs = 0, i, ret = -1, nr_old = 0, units = 0;
	unsigned int have = EM_HAVE_ALL;
	bool present;

	memset(pd, 0, sizeof(*pd));
	snprintf(pd->name, sizeof(pd->name), "%s", name);
	snprintf(rel, sizeof(rel), "%s/cpus", name);
	ret = src_read(m, s, rel, buf, sizeof(buf));
	if (ret <= 0) {
		if (!ret && m->nr_notes < EM_MAX_NOTES)
			snprintf(m->notes[m->nr_notes++], EM_MSG_LEN,
				 "%s: %s: no cpus file: not a CPU perf domain, left out",
				 m->file, name);
		return ret;
	}
	ret = -1;
	if (em_parse_cpulist(buf, &pd->cpus))
		return dfs_fail(m, "%s: '%s' is not a CPU list (like 0-3,5) of CPUs 0-%d",
				rel, esc(shown, buf, strlen(buf), 40),
				EM_NR_CPUS - 1);
	pd->first_cpu = em_cpus_first(&pd->cpus);

	snprintf(rel, sizeof(rel), "%s/flags", name);
	if (read_number(m, s, rel, false, &pd->flags, &present))
		return -1;
	if (!present)
		have &= ~EM_HAVE_FLAGS;

	/*
	 * The power unit: v5.19+ says it in flags, v5.11-v5.18 in a units
	 * file ("milliWatts" or "bogoWatts"); before, power was in mW.
	 */
	pd->unit = EM_UNIT_MW;
	if (present) {
		pd->unit = pd->flags & EM_PERF_DOMAIN_MICROWATTS ?
			   EM_UNIT_UW : EM_UNIT_ABSTRACT;
	} else {
		snprintf(rel, sizeof(rel), "%s/units", name);
		ret = src_read(m, s, rel, buf, sizeof(buf));
		if (ret < 0)
			return -1;
		if (ret && !strcmp(buf, "bogoWatts"))
			pd->unit = EM_UNIT_ABSTRACT;
		else if (ret && strcmp(buf, "milliWatts"))
			return dfs_fail(m,
					"%s: '%s', want milliWatts or bogoWatts (v5.11-v5.18)",
					rel, esc(shown, buf, strlen(buf), 20));
		units = ret;
	}
	ret = -1;

	if (src_list(m, s, name, &dirs, &nr_dirs))
		return -1;
	pd->states = calloc(nr_dirs ? nr_dirs : 1, sizeof(*pd->states));
	if (!pd->states) {
		dfs_fail(m, "out of memory");
		goto out;
	}
	for (i = 0; i < nr_dirs; i++) {
		struct em_state *ps = &pd->states[pd->nr_states];
		const char *d = dirs[i];
		uint32_t khz;
		bool old = !strncmp(d, "cs:", 3);

		if (strncmp(d, "ps:", 3) && !old)
			continue;
		if (pd->nr_states == EM_MAX_STATES) {
			dfs_fail(m, "%s: more than %d perf states", name,
				 EM_MAX_STATES);
			goto out;
		}
		nr_old += old;
		snprintf(rel, sizeof(rel), "%s/%s", name, d);
		if (parse_number(m, rel, d + 3, &khz))
			goto out;
		if (read_state(m, s, name, d, ps, &have))
			goto out;
		if (ps->frequency != khz) {
			dfs_fail(m, "%s/%s/frequency: %u, but the directory says %u kHz",
				 name, d, ps->frequency, khz);
			goto out;
		}
		if (ps->flags > 1) {
			dfs_fail(m, "%s/%s/inefficient: %u, want 0 or 1",
				 name, d, ps->flags);
			goto out;
		}
		pd->nr_states++;
	}
	if (!pd->nr_states) {
		dfs_fail(m,
			 "%s: no ps:<kHz> (or cs:<kHz>) directory: an EM has at least one perf state",
			 name);
		goto out;
	}
	qsort(pd->states, pd->nr_states, sizeof(*pd->states), cmp_state);
	for (i = 1; i < pd->nr_states; i++)
		if (pd->states[i].frequency == pd->states[i - 1].frequency) {
			dfs_fail(m, "%s: %u kHz twice", name,
				 pd->states[i].frequency);
			goto out;
		}
	/*
	 * performance = capacity * f / fmax (v6.9+): never 0 (the cost would
	 * divide by it) and never falling as the frequency rises.
	 */
	for (i = 0; (have & EM_HAVE_PERFORMANCE) && i < pd->nr_states; i++) {
		const struct em_state *ps = &pd->states[i];

		if (!ps->performance) {
			dfs_fail(m,
				 "%s/ps:%u/performance: 0: the cost divides by it (a kernel writes it only after a division by zero: check its DTB with eas-em check); fix: pass a tree whose performance is capacity * f / fmax",
				 name, ps->frequency);
			goto out;
		}
		if (i && ps->performance < pd->states[i - 1].performance) {
			dfs_fail(m,
				 "%s/ps:%u/performance: %u, below the %u of the slower %u kHz: the kernel computes capacity * f / fmax, which never falls as f rises; fix: pass the tree as the kernel wrote it",
				 name, ps->frequency, ps->performance,
				 pd->states[i - 1].performance,
				 pd->states[i - 1].frequency);
			goto out;
		}
	}
	pd->have = have;
	if (have & EM_HAVE_PERFORMANCE)
		pd->capacity = pd->states[pd->nr_states - 1].performance;
	pd->cost = have & EM_HAVE_PERFORMANCE ? EM_COST_PERF : EM_COST_FREQ;
	if (nr_old)
		snprintf(m->layout, sizeof(m->layout), "v5.0-v5.8 (pdN/cs:)");
	else if (have & EM_HAVE_PERFORMANCE)
		snprintf(m->layout, sizeof(m->layout), "v6.9+");
	else if (have & EM_HAVE_FLAGS)
		snprintf(m->layout, sizeof(m->layout), "v5.19-v6.8");
	else if (units && (have & EM_HAVE_INEFFICIENT))
		snprintf(m->layout, sizeof(m->layout), "v5.16-v5.18");
	else if (units)
		snprintf(m->layout, sizeof(m->layout), "v5.11-v5.15");
	else
		snprintf(m->layout, sizeof(m->layout), "v5.9-v5.10");
	m->nr_pds++;
	ret = 1;
out:
	free_names(dirs, nr_dirs);
	if (ret < 0) {
		free(pd->states);
		pd->states = NULL;
	}
	return ret;
}

static int cmp_pd(const void *a, const void *b)
{
	const struct em_pd *x = a, *y = b;

	return x->first_cpu - y->first_cpu;
}

static int load_src(struct em_model *m, struct em_src *s)
{
	char **dirs;
	int nr, i, k;
	struct em_cpumask all = { };

	if (src_list(m, s, "", &dirs, &nr))
		return -1;
	for (i = 0; i < nr; i++) {
		if (m->nr_pds == EM_NR_CPUS) {
			free_names(dirs, nr);
			return dfs_fail(m, "more than %d perf domains", EM_NR_CPUS);
		}
		if (read_pd(m, s, dirs[i]) < 0) {
			free_names(dirs, nr);
			return -1;
		}
	}
	free_names(dirs, nr);
	if (!m->nr_pds)
		return dfs_fail(m,
				"no CPU perf domain: the kernel registered no CPU Energy Model (no dynamic-power-coefficient? check the DTB with 'eas-em check')");
	qsort(m->pd, m->nr_pds, sizeof(m->pd[0]), cmp_pd);
	for (k = 0; k < m->nr_pds; k++) {
		if (em_cpus_intersect(&all, &m->pd[k].cpus))
			return dfs_fail(m, "%s: its CPUs are in another perf domain too",
					m->pd[k].name);
		em_cpus_or(&all, &m->pd[k].cpus);
	}
	m->nr_cpus = em_cpus_last(&all) + 1;
	for (k = 0; k < m->nr_pds; k++)
		for (i = 0; i < m->nr_cpus; i++)
			if (em_cpu_test(&m->pd[k].cpus, i))
				m->cpu[i].pd = k;
	return 0;
}

/* /proc/mounts escapes blanks and backslashes as \ooo: undo it in place */
static void unescape_mount(char *p)
{
	char *o = p;

	for (; *p; p++, o++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' &&
		    p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			*o = (p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0');
			p += 3;
		} else {
			*o = *p;
		}
	}
	*o = '\0';
}

/*
 * Where debugfs is mounted: /sys/kernel/debug if it is mounted there, else
 * its first mount point in /proc/mounts. Return 1 with @dir filled in, 0 if
 * it is not mounted, -1 if /proc/mounts cannot be read (cannot tell).
 */
static int debugfs_mount(char *dir, size_t len)
{
	char line[4096], mnt[4096], type[64];
	int found = 0;
	FILE *f;

	f = fopen("/proc/mounts", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s", mnt, type) != 2 ||
		    strcmp(type, "debugfs"))
			continue;
		unescape_mount(mnt);
		if (!strcmp(mnt, DEBUGFS_ROOT) || !found) {
			snprintf(dir, len, "%s", mnt);
			found = 1;
		}
		if (!strcmp(mnt, DEBUGFS_ROOT))
			break;
	}
	fclose(f);
	return found;
}

/**
 * em_lines_load_mem() - read "energy_model/<path> <value>" lines
 * @m:		the model to fill in (pds and states only)
 * @name:	a name for messages
 * @buf:	the text, not NUL-terminated
 * @size:	its length
 *
 * Lines not starting with "energy_model/" (after an optional "@em ") are
 * skipped. Return: 0, or -1 with m->error set.
 */
int em_lines_load_mem(struct em_model *m, const char *name, const char *buf,
		      size_t size)
{
	struct em_src s = { };
	char shown[4 * 200 + 4];
	size_t pos = 0;
	int alloc = 0, ret, i;

	memset(m, 0, sizeof(*m));
	m->file = name;
	m->cap_first_missing = -1;
	while (pos < size) {
		const char *line = buf + pos, *end, *sp;
		size_t len;

		end = memchr(line, '\n', size - pos);
		len = end ? (size_t)(end - line) : size - pos;
		pos += len + 1;
		if (len >= 4 && !memcmp(line, "@em ", 4)) {
			line += 4;
			len -= 4;
		}
		if (len < 13 || memcmp(line, "energy_model/", 13))
			continue;
		line += 13;
		len -= 13;
		sp = memchr(line, ' ', len);
		if (memchr(line, '\0', len)) {
			ret = dfs_fail(m,
				       "'energy_model/%s': a NUL byte, so not text; fix: pass the dump as the shell printed it",
				       esc(shown, line, len, 60));
			goto out;
		}
		if (!sp || sp == line) {
			ret = dfs_fail(m,
				       "'energy_model/%s': want \"energy_model/<path> <value>\"",
				       esc(shown, line, len, 60));
			goto out;
		}
		if (s.nr_lines == EM_MAX_LINES) {
			ret = dfs_fail(m, "more than %d lines", EM_MAX_LINES);
			goto out;
		}
		if (s.nr_lines == alloc) {
			struct em_line *tmp;

			alloc = alloc ? alloc * 2 : 256;
			tmp = realloc(s.lines, alloc * sizeof(*tmp));
			if (!tmp) {
				ret = dfs_fail(m, "out of memory");
				goto out;
			}
			s.lines = tmp;
		}
		s.lines[s.nr_lines].path = strndup(line, sp - line);
		s.lines[s.nr_lines].value = strndup(sp + 1, line + len - sp - 1);
		if (!s.lines[s.nr_lines].path || !s.lines[s.nr_lines].value) {
			free(s.lines[s.nr_lines].path);
			free(s.lines[s.nr_lines].value);
			ret = dfs_fail(m, "out of memory");
			goto out;
		}
		s.nr_lines++;
	}
	if (!s.nr_lines) {
		ret = dfs_fail(m, "no \"energy_model/<path> <value>\" line");
		goto out;
	}
	qsort(s.lines, s.nr_lines, sizeof(*s.lines), cmp_line);
	for (i = 1; i < s.nr_lines; i++)
		if (!strcmp(s.lines[i].path, s.lines[i - 1].path)) {
			ret = dfs_fail(m, "energy_model/%s: twice",
				       esc(shown, s.lines[i].path,
					   strlen(s.lines[i].path), 200));
			goto out;
		}
	ret = load_src(m, &s);
out:
	for (i = 0; i < s.nr_lines; i++) {
		free(s.lines[i].path);
		free(s.lines[i].value);
	}
	free(s.lines);
	return ret;
}

/**
 * em_debugfs_load() - read an energy_model tree, or a dump of one
 * @m:		the model to fill in (pds and states only)
 * @path:	the energy_model directory, or a file of lines
 *
 * Return: 0, or -1 with m->error set.
 */
int em_debugfs_load(struct em_model *m, const char *path)
{
	struct em_src s = { .root = path };
	struct stat st;
	size_t size = 0, alloc = 0;
	char *buf = NULL;
	ssize_t r;
	int fd, ret;

	memset(m, 0, sizeof(*m));
	m->file = path;
	m->cap_first_missing = -1;
	if (stat(path, &st)) {
		static char alt[4096];
		char mnt[4096];
		int err = errno, mounted;

		if (err != ENOENT || strncmp(path, DEBUGFS_ROOT "/", 18))
			return dfs_fail(m, "cannot access: %s%s", strerror(err),
					err == EACCES ?
					"; fix: debugfs is for root, run eas-em as root" : "");
		mounted = debugfs_mount(mnt, sizeof(mnt));
		if (!mounted)
			return dfs_fail(m,
					"debugfs is not mounted (not in /proc/mounts); fix: mount -t debugfs none %s (as root), or pass a directory or dump",
					DEBUGFS_ROOT);
		if (mounted < 0 || !strcmp(mnt, DEBUGFS_ROOT))
			return dfs_fail(m,
					"missing: debugfs is mounted but the kernel has no Energy Model directory (CONFIG_ENERGY_MODEL=n?)");
		/* mounted elsewhere: the same file under that mount */
		snprintf(alt, sizeof(alt), "%s%s", mnt, path + 17);
		if (stat(alt, &st))
			return dfs_fail(m,
					"missing: debugfs is mounted on %s (not %s), and %s: %s (CONFIG_ENERGY_MODEL=n?)",
					mnt, DEBUGFS_ROOT, alt, strerror(errno));
		path = alt;
		s.root = alt;
		m->file = alt;
		snprintf(m->notes[m->nr_notes++], EM_MSG_LEN,
			 "debugfs is mounted on %.400s, not %s: reading %.400s", mnt,
			 DEBUGFS_ROOT, alt);
	}
	if (S_ISDIR(st.st_mode))
		return load_src(m, &s);

	/*
	 * A dump: a regular file, or a pipe (as <(ssh board ...) gives, or a
	 * named one), read to its end. A FIFO's open() waits for its writer,
	 * as cat's does: opened without waiting, it read its end at once when
	 * the writer came late, and that was taken for a dump with no line.
	 */
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		return dfs_fail(m,
				"not a regular file (%s); fix: pass the energy_model directory or a dump of it",
				em_file_type(st.st_mode));
	fd = open(path, O_RDONLY | O_NOCTTY |
		  (S_ISFIFO(st.st_mode) ? 0 : O_NONBLOCK));
	if (fd < 0)
		return dfs_fail(m, "cannot open: %s", strerror(errno));
	if (fcntl(fd, F_SETFL, 0)) {
		close(fd);
		return dfs_fail(m, "cannot read: %s", strerror(errno));
	}
	do {
		if (size == alloc) {
			char *tmp;

			alloc = alloc ? alloc * 2 : 65536;
			tmp = alloc <= (64U << 20) ? realloc(buf, alloc) : NULL;
			if (!tmp) {
				free(buf);
				close(fd);
				return dfs_fail(m, "too large or out of memory");
			}
			buf = tmp;
		}
		r = read(fd, buf + size, alloc - size);
		if (r > 0)
			size += r;
	} while (r > 0);
	close(fd);
	if (r < 0) {
		free(buf);
		return dfs_fail(m, "cannot read: %s", strerror(errno));
	}
	ret = em_lines_load_mem(m, path, buf, size);
	m->file = path;
	free(buf);
	return ret;
}
