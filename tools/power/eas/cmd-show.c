// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em show: the Energy Model of a running kernel, from debugfs
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eas-em.h"

static void show_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s show [--format=table|debugfs|json] [--tree=DIR] [PATH]\n"
		"\n"
		"Print the Energy Model a running kernel shows in debugfs. PATH is the\n"
		"energy_model directory (default " DEBUGFS_EM "), a copy\n"
		"of it, or a file of \"energy_model/<pd>/<file> <value>\" lines (what\n"
		"'compute --format=debugfs' prints; lines may start with \"@em \", others\n"
		"are skipped, so a console log can be given as is); a dump may be a pipe\n"
		"or a named one (FIFO): show waits for its writer, as cat does.\n"
		"\n"
		"Reads the layouts of v5.0-v5.8 (pdN/cs:<kHz>), v5.9+ (<dev>/ps:<kHz>),\n"
		"v5.16+ (flags, inefficient) and v6.9+ (performance); what a layout lacks\n"
		"shows as \"-\". Options as for compute.\n"
		"\n"
		"Exit status: 0 ok; 2 with a message naming the file when debugfs is not\n"
		"mounted, a file is missing or unreadable, or a value is not a number.\n",
		progname);
}

static int cmd_show(int argc, char **argv)
{
	struct cmd_args a = { };
	struct em_model *m;
	int ret;

	ret = parse_args("show", show_usage, "fjt", argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD;
	if (want_args("show", argc, 0, 1, "one energy_model directory or dump"))
		return EXIT_BAD;
	m = new_model();
	if (!m)
		return EXIT_BAD;
	if (load_source(m, optind < argc ? argv[optind] : DEBUGFS_EM, NULL,
			false) == 0) {
		print_notes(m);
		ret = output_model(m, a.format, a.tree);
	} else {
		ret = EXIT_BAD;
	}
	free_model(m);
	return ret;
}

const struct eas_em_command eas_em_show = {
	.name = "show",
	.fn = cmd_show,
	.usage = show_usage,
	.summary = "the Energy Model of a running kernel, from debugfs",
};
