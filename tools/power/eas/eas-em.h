/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eas-em: what its commands share. eas-em.c parses the options and loads
 * a model (DTB or debugfs), output.c prints one; each command is a file of
 * its own, cmd-<name>.c, whose usage text is its only description (the
 * command list of "eas-em --help" takes each one's summary from it).
 */
#ifndef EAS_EM_H
#define EAS_EM_H

#include <stdbool.h>
#include <stdio.h>

#include "em.h"

#define EXIT_OK		0
#define EXIT_CHECK	1
#define EXIT_BAD	2

#define DEBUGFS_EM	"/sys/kernel/debug/energy_model"

extern const char *progname;

enum em_format {
	FORMAT_TABLE,
	FORMAT_DEBUGFS,
	FORMAT_JSON,
};

/* Options common to the commands (parse_args) */
struct cmd_args {
	enum em_format format;
	struct em_options opt;
	const char *tree;
	const char *output;
	bool legacy;
	bool registered;
};

/* A command: "eas-em NAME ARGS" runs fn(argc, argv) from NAME on. */
struct eas_em_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	void (*usage)(FILE *out);
	const char *summary;
};

extern const struct eas_em_command eas_em_compute, eas_em_show, eas_em_diff,
	eas_em_check, eas_em_plot, eas_em_fit;

/* eas-em.c: returns -1 to exit 2, 1 after --help, 0 to go on */
int parse_args(const char *cmd, void (*usage)(FILE *out),
	       const char *allowed, int argc, char **argv,
	       struct cmd_args *a);
int want_args(const char *cmd, int argc, int min, int max, const char *what);
int load_source(struct em_model *m, const char *path,
		const struct em_options *opt, bool dtb);
struct em_model *new_model(void);
void free_model(struct em_model *m);

/* output.c */
/* The files of a perf state in debugfs (ps:<kHz>/<file>), in this order. */
#define NR_STATE_FILES	5
extern const char * const state_files[NR_STATE_FILES];
/* Whether a perf domain has state file F (older kernels lack some). */
bool state_file_present(const struct em_pd *pd, int f);
/* The value of state file F of a perf state. */
uint32_t state_value(const struct em_state *ps, int f);
void print_notes(const struct em_model *m);
int output_model(const struct em_model *m, enum em_format format,
		 const char *tree);
int write_stdout(const char *buf, size_t size);
void json_pd_head(FILE *out, const struct em_pd *pd, int n);

#endif /* EAS_EM_H */
