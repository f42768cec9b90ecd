// SPDX-License-Identifier: GPL-2.0
/*
 * trace-events: the events of a trace-cmd trace.dat as JSON lines, read
 * with libtracecmd and libtraceevent (the trace's own event formats; no
 * parsing of trace-cmd's text output).
 *
 *   trace-events TRACE.dat [SYSTEM:EVENT ...]
 *
 * One line per event, in time order, of the events named (all if none):
 *   {"ts": NS, "cpu": N, "pid": PID, "event": "SYSTEM:EVENT",
 *    "f": {"FIELD": VALUE, ...}}
 * with every field of the event's format except the common_ ones: numbers
 * as numbers (signed where the format says so), char arrays and
 * __data_loc strings as strings, other arrays left out. Where the ring
 * buffer dropped events before a record, a line {"lost": N, "cpu": N,
 * "ts": NS} comes first (N is -1 when the count is unknown).
 *
 * Exit status: 0 ok; 2 with a message naming the file when it cannot be
 * opened as a trace.dat, is truncated or corrupt, or an event named is not
 * in it; then nothing is printed on stdout. 2 as well, with a message
 * naming stdout, when stdout is closed or the events could not all be
 * written to it (a full device): never 0 with events lost.
 *
 * libtracecmd 3.1.6 crashes (in tracecmd_close() on the error path of
 * tracecmd_open()) on a file cut short: so the file's structure is checked
 * first (check_dat()), and libtracecmd reads it in a child process whose
 * output is kept until it has ended well (read_isolated()): all the events
 * or none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace-cmd.h>
#include <event-parse.h>

#define FIX_EXTRACT	"fix: copy it again, or extract it again with 'trace-cmd extract -o FILE'"

struct want {
	char **names;
	int n;
};

static void put_string(const char *s, size_t len)
{
	size_t i;

	putchar('"');
	for (i = 0; i < len && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static int wanted(const struct want *w, struct tep_event *event)
{
	char name[256];
	int i;

	if (!w->n)
		return 1;
	snprintf(name, sizeof(name), "%s:%s", event->system, event->name);
	for (i = 0; i < w->n; i++)
		if (!strcmp(w->names[i], name))
			return 1;
	return 0;
}

static void put_field(struct tep_event *event, struct tep_format_field *field,
		      struct tep_record *record)
{
	unsigned long long val;

	if (field->flags & TEP_FIELD_IS_STRING) {
		const char *s;
		int len;

		if (field->flags & TEP_FIELD_IS_DYNAMIC) {
			s = tep_get_field_raw(NULL, event, field->name, record, &len, 0);
			if (!s)
				len = 0;
		} else {
			s = (const char *)record->data + field->offset;
			/* A flexible array (print's buf[]) runs to the record's end. */
			len = field->size ? field->size : record->size - field->offset;
		}
		if (len < 0)
			len = 0;
		put_string(s ? s : "", len);
		return;
	}
	if (tep_read_number_field(field, record->data, &val)) {
		printf("null");
		return;
	}
	if (field->flags & TEP_FIELD_IS_SIGNED) {
		switch (field->size) {
		case 1:
			printf("%d", (signed char)val);
			return;
		case 2:
			printf("%d", (short)val);
			return;
		case 4:
			printf("%d", (int)val);
			return;
		default:
			printf("%lld", (long long)val);
			return;
		}
	}
	printf("%llu", val);
}

static int one(struct tracecmd_input *handle, struct tep_record *record,
	       int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(handle);
	const struct want *w = data;
	struct tep_format_field *field;
	struct tep_event *event;
	unsigned long long pid = 0;
	int first = 1;

	if (record->missed_events)
		printf("{\"lost\": %lld, \"cpu\": %d, \"ts\": %llu}\n",
		       record->missed_events > 0 ? record->missed_events : -1LL,
		       cpu, record->ts);
	event = tep_find_event_by_record(tep, record);
	if (!event || !wanted(w, event))
		return 0;
	field = tep_find_common_field(event, "common_pid");
	if (field)
		tep_read_number_field(field, record->data, &pid);
	printf("{\"ts\": %llu, \"cpu\": %d, \"pid\": %llu, \"event\": \"%s:%s\", \"f\": {",
	       record->ts, cpu, pid, event->system, event->name);
	for (field = event->format.fields; field; field = field->next) {
		if ((field->flags & TEP_FIELD_IS_ARRAY) &&
		    !(field->flags & TEP_FIELD_IS_STRING))
			continue;
		printf("%s\"%s\": ", first ? "" : ", ", field->name);
		first = 0;
		put_field(event, field, record);
	}
	printf("}}\n");
	return 0;
}

/*
 * The structure of a trace.dat, trace-cmd.dat.v6(5) and .v7(5): every size
 * and offset it holds must stay inside the file. A reader of it: a file,
 * its size, the byte order, where it is, and what went wrong.
 */
struct dat {
	int fd;
	uint64_t size;
	uint64_t pos;
	bool big;
	char why[512];
};

static int __printf(2, 3) dat_fail(struct dat *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* The LEN bytes at d->pos (d->pos moves on); WHAT names them for the message. */
static int dat_get(struct dat *d, void *buf, uint64_t len, const char *what)
{
	ssize_t r;

	if (len > d->size || d->pos > d->size - len)
		return dat_fail(d,
				"truncated or corrupt: %llu bytes, but its %s at offset %llu runs to %llu",
				(unsigned long long)d->size, what,
				(unsigned long long)d->pos,
				(unsigned long long)(d->pos + len));
	if (buf) {
		r = pread(d->fd, buf, len, d->pos);
		if (r != (ssize_t)len)
			return dat_fail(d, "cannot read: %s",
					r < 0 ? strerror(errno) : "short read");
	}
	d->pos += len;
	return 0;
}

/* A number of WIDTH bytes (2, 4 or 8) in the file's byte order */
static int dat_num(struct dat *d, int width, uint64_t *val, const char *what)
{
	unsigned char b[8];
	int i;

	if (dat_get(d, b, width, what))
		return -1;
	*val = 0;
	for (i = 0; i < width; i++)
		*val |= (uint64_t)b[d->big ? i : width - 1 - i] <<
			(8 * (width - 1 - i));
	return 0;
}

/* A size of WIDTH bytes, then as many bytes, skipped */
static int dat_sized(struct dat *d, int width, const char *what)
{
	uint64_t len;

	return dat_num(d, width, &len, what) || dat_get(d, NULL, len, what);
}

/* A NUL-terminated string of at most LEN - 1 characters */
static int dat_string(struct dat *d, char *buf, size_t len, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (dat_get(d, buf + i, 1, what))
			return -1;
		if (!buf[i])
			return 0;
	}
	return dat_fail(d, "corrupt: its %s at offset %llu is not a string",
			what, (unsigned long long)(d->pos - len));
}

/* A block of data at OFF of LEN bytes, which must be inside the file */
static int dat_extent(struct dat *d, uint64_t off, uint64_t len,
		      const char *what, unsigned int n)
{
	if (off <= d->size && len <= d->size - off)
		return 0;
	return dat_fail(d,
			"truncated or corrupt: %llu bytes, but the data of its %s %u is at offset %llu, %llu bytes, to %llu",
			(unsigned long long)d->size, what, n,
			(unsigned long long)off, (unsigned long long)len,
			(unsigned long long)(off + len));
}

/* Version 6: the sections one after the other, then the CPUs' data */
static int check_v6(struct dat *d)
{
	uint64_t n, i, j, count, cpus, id, off, len;
	char label[16], name[256];

	if (dat_get(d, label, 12, "header_page") ||
	    memcmp(label, "header_page", 12) ||
	    dat_sized(d, 8, "header_page") ||
	    dat_get(d, label, 13, "header_event") ||
	    memcmp(label, "header_event", 13) ||
	    dat_sized(d, 8, "header_event"))
		return d->why[0] ? -1 :
		       dat_fail(d,
				"corrupt: no header_page or header_event where the v6 format has them");
	if (dat_num(d, 4, &n, "ftrace event formats"))
		return -1;
	for (i = 0; i < n; i++)
		if (dat_sized(d, 8, "ftrace event formats"))
			return -1;
	if (dat_num(d, 4, &n, "event formats"))
		return -1;
	for (i = 0; i < n; i++) {
		if (dat_string(d, name, sizeof(name), "event system name") ||
		    dat_num(d, 4, &count, "event formats"))
			return -1;
		for (j = 0; j < count; j++)
			if (dat_sized(d, 8, "event formats"))
				return -1;
	}
	if (dat_sized(d, 4, "kallsyms") || dat_sized(d, 4, "printk formats") ||
	    dat_sized(d, 8, "saved cmdlines") || dat_num(d, 4, &cpus, "CPU count"))
		return -1;
	for (;;) {
		if (dat_get(d, label, 10, "section name"))
			return -1;
		if (!memcmp(label, "latency  ", 10))
			return 0;
		if (!memcmp(label, "flyrecord", 10))
			break;
		if (memcmp(label, "options  ", 10))
			return dat_fail(d,
					"corrupt: no options, latency or flyrecord at offset %llu",
					(unsigned long long)(d->pos - 10));
		for (;;) {
			if (dat_num(d, 2, &id, "option"))
				return -1;
			if (!id)
				break;
			if (dat_num(d, 4, &len, "option"))
				return -1;
			/* a buffer instance: its data's offset first */
			if (id == 3 && len >= 8) {
				if (dat_num(d, 8, &off, "option") ||
				    dat_extent(d, off, 0, "buffer instance", 0))
					return -1;
				len -= 8;
			}
			if (dat_get(d, NULL, len, "option"))
				return -1;
		}
	}
	for (i = 0; i < cpus; i++)
		if (dat_num(d, 8, &off, "CPU data offsets") ||
		    dat_num(d, 8, &len, "CPU data sizes") ||
		    dat_extent(d, off, len, "CPU", i))
			return -1;
	return 0;
}

/* Version 7: a section header (id, flags, name, size) whose data fits */
static int check_section(struct dat *d, uint64_t off, const char *what,
			 uint64_t *id, uint64_t *flags, uint64_t *end)
{
	uint64_t name, len;

	d->pos = off;
	if (dat_num(d, 2, id, what) || dat_num(d, 2, flags, what) ||
	    dat_num(d, 4, &name, what) || dat_num(d, 8, &len, what) ||
	    dat_get(d, NULL, len, what))
		return -1;
	*end = d->pos;
	d->pos = off + 16;
	return 0;
}

/*
 * Version 7: a chain of options sections (never compressed), from the
 * offset after the header; their options give the offsets of the other
 * sections and of each CPU's data.
 */
static int check_v7(struct dat *d)
{
	uint64_t next, id, flags, end, opt, len, off, cpus, i, cpu, size;
	char buf[256];
	unsigned int sections = 0;

	if (dat_string(d, buf, sizeof(buf), "compression name") ||
	    dat_string(d, buf, sizeof(buf), "compression version") ||
	    dat_num(d, 8, &next, "options offset"))
		return -1;
	while (next) {
		if (++sections > 4096)
			return dat_fail(d, "corrupt: more than 4096 options sections (a loop?)");
		if (check_section(d, next, "options section", &id, &flags, &end))
			return -1;
		if (id || flags)
			return dat_fail(d, "corrupt: no options section at offset %llu",
					(unsigned long long)next);
		next = 0;
		while (d->pos < end) {
			uint64_t start;

			if (dat_num(d, 2, &opt, "option") ||
			    dat_num(d, 4, &len, "option"))
				return -1;
			start = d->pos;
			if (len > end - start)
				return dat_fail(d,
						"corrupt: option %llu at offset %llu runs past its section",
						(unsigned long long)opt,
						(unsigned long long)start);
			if (!opt) {
				if (dat_num(d, 8, &next, "option DONE"))
					return -1;
				if (next && next <= start)
					return dat_fail(d,
							"corrupt: options section at offset %llu points back to %llu",
							(unsigned long long)start,
							(unsigned long long)next);
				break;
			}
			/* HEADER_INFO to CMDLINES, BUFFER_TEXT: a section */
			if ((opt >= 16 && opt <= 22) || opt == 3) {
				if (dat_num(d, 8, &off, "option") ||
				    check_section(d, off, "section", &id, &flags,
						  &size))
					return -1;
				d->pos = start + 8;
			}
			/* BUFFER: name, clock, page size, then each CPU's data */
			if (opt == 3 &&
			    (dat_string(d, buf, sizeof(buf), "buffer name") ||
			     dat_string(d, buf, sizeof(buf), "buffer clock") ||
			     dat_num(d, 4, &size, "buffer page size") ||
			     dat_num(d, 4, &cpus, "buffer CPU count")))
				return -1;
			for (i = 0; opt == 3 && i < cpus; i++)
				if (dat_num(d, 4, &cpu, "CPU data") ||
				    dat_num(d, 8, &off, "CPU data") ||
				    dat_num(d, 8, &size, "CPU data") ||
				    dat_extent(d, off, size, "CPU", cpu))
					return -1;
			d->pos = start + len;
		}
	}
	return 0;
}

/*
 * Check what libtracecmd trusts: the file's header, and that every
 * section and every CPU's data lies inside the file. Return 0, or -1 with
 * d->why set.
 */
static int check_dat(struct dat *d, const char *path)
{
	static const unsigned char magic[10] = "\x17\x08\x44tracing";
	unsigned char head[10], b[2];
	char version[16];
	uint64_t page;
	struct stat st;
	int ret;

	memset(d, 0, sizeof(*d));
	d->fd = open(path, O_RDONLY | O_NONBLOCK);
	if (d->fd < 0)
		return dat_fail(d, "cannot open: %s", strerror(errno));
	if (fstat(d->fd, &st) || !S_ISREG(st.st_mode)) {
		close(d->fd);
		return dat_fail(d, "not a regular file; fix: give the trace.dat file");
	}
	d->size = st.st_size;
	ret = -1;
	if (d->size < sizeof(magic) ||
	    dat_get(d, head, sizeof(head), "magic") ||
	    memcmp(head, magic, sizeof(magic))) {
		dat_fail(d,
			 "not a trace-cmd trace.dat (no magic \\x17\\x08\\x44tracing); fix: make it with 'trace-cmd extract -o FILE'");
		goto out;
	}
	if (dat_string(d, version, sizeof(version), "version") ||
	    dat_get(d, b, 2, "byte order and long size") ||
	    dat_num(d, 4, &page, "page size"))
		goto out;
	d->big = b[0];
	if (page < 1024 || page > (1 << 20) || (page & (page - 1))) {
		dat_fail(d, "corrupt: page size %llu, not a power of 2 from 1 KiB to 1 MiB",
			 (unsigned long long)page);
		goto out;
	}
	if (!strcmp(version, "6"))
		ret = check_v6(d);
	else if (!strcmp(version, "7"))
		ret = check_v7(d);
	else if (strspn(version, "0123456789") == strlen(version))
		dat_fail(d,
			 "file version %.8s: this reader knows versions 6 and 7; fix: extract it with trace-cmd 3.x",
			 version);
	else
		dat_fail(d, "corrupt: its file version is not a number");
out:
	close(d->fd);
	return ret;
}

/* libtracecmd's part: the events as JSON lines on stdout, or exit 2 */
static int read_events(const char *path, int nr_names, char **names)
{
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct want w;
	int i;

	tracecmd_set_loglevel(TEP_LOG_ERROR);
	handle = tracecmd_open(path, 0);
	if (!handle) {
		fprintf(stderr, "trace-events: %s: %s\n", path,
			"not a trace-cmd trace.dat, or unreadable (make it with 'trace-cmd extract -o FILE')");
		return 2;
	}
	tep = tracecmd_get_tep(handle);
	w.names = names;
	w.n = nr_names;
	for (i = 0; i < w.n; i++) {
		char *sys = strdup(w.names[i]), *name = strchr(sys, ':');

		if (name)
			*name++ = 0;
		if (!name || !tep_find_event_by_name(tep, sys, name)) {
			fprintf(stderr, "trace-events: %s: no event %s in it %s\n", path,
				w.names[i], "(want SYSTEM:EVENT, recorded with trace-cmd -e)");
			free(sys);
			tracecmd_close(handle);
			return 2;
		}
		free(sys);
	}
	tracecmd_iterate_events(handle, NULL, 0, one, &w);
	tracecmd_close(handle);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "trace-events: %s: writing the events to a temporary file: %s\n",
			path, strerror(errno));
		return 2;
	}
	return 0;
}

/*
 * read_events() in a child whose stdout is an unlinked temporary file;
 * copied to stdout once the child has exited 0. A crash of libtracecmd is
 * bad input, and prints nothing on stdout.
 */
static int read_isolated(const char *path, int nr_names, char **names)
{
	char buf[65536];
	FILE *tmp;
	ssize_t n;
	int status;
	pid_t pid;

	tmp = tmpfile();
	if (!tmp) {
		fprintf(stderr, "trace-events: a temporary file: %s\n", strerror(errno));
		return 2;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "trace-events: fork: %s\n", strerror(errno));
		return 2;
	}
	if (!pid) {
		if (dup2(fileno(tmp), STDOUT_FILENO) < 0)
			_exit(2);
		exit(read_events(path, nr_names, names));
	}
	if (waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "trace-events: waitpid: %s\n", strerror(errno));
		return 2;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr,
			"trace-events: %s: libtracecmd crashed reading it (%s): the file is corrupt; %s\n",
			path, strsignal(WTERMSIG(status)), FIX_EXTRACT);
		return 2;
	}
	if (WEXITSTATUS(status))
		return WEXITSTATUS(status);
	if (lseek(fileno(tmp), 0, SEEK_SET)) {
		fprintf(stderr, "trace-events: the temporary file: %s\n", strerror(errno));
		return 2;
	}
	while ((n = read(fileno(tmp), buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			break;
	fclose(tmp);
	/* every event written, and stdout closed without an error */
	if (n < 0 || ferror(stdout) || fclose(stdout)) {
		fprintf(stderr, "trace-events: writing the events to stdout: %s\n",
			strerror(errno));
		return 2;
	}
	return 0;
}

/*
 * Open fds 0-2 on /dev/null where they are closed, before anything else is
 * opened: else the temporary file would become stdout (the child's events
 * written into it, then copied onto themselves) and a closed stdout would
 * pass for an output. Return 0, or -1 if stdout was closed (or fds 0-2
 * cannot be made), said on stderr.
 */
static int std_fds(void)
{
	bool out_closed = false;
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (fd == STDOUT_FILENO)
			out_closed = true;
		/* the lowest free fd: this one, those below it being open */
		if (open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY) != fd) {
			fprintf(stderr,
				"trace-events: fd %d is closed and /dev/null cannot take it: %s\n",
				fd, strerror(errno));
			return -1;
		}
	}
	if (out_closed) {
		fprintf(stderr,
			"trace-events: stdout is closed: the events would be lost; fix: give them somewhere to go (a file, a pipe)\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct dat d;

	if (std_fds())
		return 2;
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: %s TRACE.dat [SYSTEM:EVENT ...]\n", argv[0]);
		return 2;
	}
	if (check_dat(&d, argv[1])) {
		fprintf(stderr, "trace-events: %s: %s%s%s\n", argv[1], d.why,
			strstr(d.why, "fix:") ? "" : "; ",
			strstr(d.why, "fix:") ? "" : FIX_EXTRACT);
		return 2;
	}
	return read_isolated(argv[1], argc - 2, argv + 2);
}
