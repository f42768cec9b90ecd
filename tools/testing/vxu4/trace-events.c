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
 * opened as a trace.dat, or an event named is not in it.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>
#include <event-parse.h>

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

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct want w;
	int i;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: %s TRACE.dat [SYSTEM:EVENT ...]\n", argv[0]);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_ERROR);
	handle = tracecmd_open(argv[1], 0);
	if (!handle) {
		fprintf(stderr, "trace-events: %s: %s\n", argv[1],
			"not a trace-cmd trace.dat, or unreadable (make it with 'trace-cmd extract -o FILE')");
		return 2;
	}
	tep = tracecmd_get_tep(handle);
	w.names = argv + 2;
	w.n = argc - 2;
	for (i = 0; i < w.n; i++) {
		char *sys = strdup(w.names[i]), *name = strchr(sys, ':');

		if (name)
			*name++ = 0;
		if (!name || !tep_find_event_by_name(tep, sys, name)) {
			fprintf(stderr, "trace-events: %s: no event %s in it %s\n", argv[1],
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
		perror("trace-events: stdout");
		return 2;
	}
	return 0;
}
