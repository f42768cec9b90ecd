// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em - Energy-Aware Scheduling tools for Linux 6.12 on arm32
 *
 * eas-em compute FILE.dtb prints the Energy Model the kernel builds from a
 * device tree (cpufreq-dt performance domains, CPU capacities, power,
 * performance, cost, inefficient states), computed with the kernel's own
 * integer arithmetic: as a table, in the layout of
 * /sys/kernel/debug/energy_model, or as JSON.
 *
 * Exit status: 0 ok, 1 check failed, 2 bad input or usage.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "eas-em.h"

#define EAS_EM_VERSION	"0.1"

const char *progname = "eas-em";

static const char * const format_names[] = {
	[FORMAT_TABLE]		= "table",
	[FORMAT_DEBUGFS]	= "debugfs",
	[FORMAT_JSON]		= "json",
};

/*
 * --boot-freq=max|none|cpuN=kHz[,cpuM=kHz...]: each item a CPU and its
 * clock rate; an empty item or a CPU given twice is refused (which of two
 * rates was meant cannot be told), naming the option and the item.
 */
static int parse_boot_freq(const char *cmd, const char *arg,
			   struct em_options *opt)
{
	const char *tok, *next, *why = NULL;
	unsigned long cpu, khz;
	char *end;
	size_t len;
	int i;

	if (!strcmp(arg, "max"))
		return 0;
	if (!strcmp(arg, "none")) {
		opt->boot_none = true;
		return 0;
	}
	opt->nr_boot_rates = 0;
	for (tok = arg; tok; tok = next) {
		next = strchr(tok, ',');
		len = next ? (size_t)(next - tok) : strlen(tok);
		if (next)
			next++;
		if (!len) {
			why = "an empty item (two commas, or one at an end)";
			break;
		}
		if (strncmp(tok, "cpu", 3) || !isdigit((unsigned char)tok[3])) {
			why = "an item that is not cpuN=kHz";
			break;
		}
		errno = 0;
		cpu = strtoul(tok + 3, &end, 10);
		if (*end != '=' || cpu >= EM_NR_CPUS) {
			why = *end != '=' ? "an item that is not cpuN=kHz" :
			      "a CPU number too large";
			break;
		}
		tok = end + 1;
		khz = isdigit((unsigned char)*tok) ? strtoul(tok, &end, 10) : 0;
		if (!khz || errno || khz > UINT32_MAX || (*end && *end != ',')) {
			why = "a rate that is not a whole number of kHz from 1 to 4294967295";
			break;
		}
		for (i = 0; i < opt->nr_boot_rates; i++)
			if (opt->boot_rates[i].cpu == (int)cpu)
				break;
		if (i < opt->nr_boot_rates) {
			fprintf(stderr,
				"%s: %s: bad --boot-freq '%s': cpu%lu given twice; want each CPU once: max, none or cpuN=kHz[,cpuM=kHz...]\n",
				progname, cmd, arg, cpu);
			return -1;
		}
		opt->boot_rates[opt->nr_boot_rates].cpu = cpu;
		opt->boot_rates[opt->nr_boot_rates].khz = khz;
		opt->nr_boot_rates++;
	}
	if (!why)
		return 0;
	fprintf(stderr,
		"%s: %s: bad --boot-freq '%s': %s; want max, none or cpuN=kHz[,cpuM=kHz...]\n",
		progname, cmd, arg, why);
	return -1;
}

static int parse_arch(const char *cmd, const char *arg, struct em_options *opt)
{
	if (!strcmp(arg, "arm")) {
		opt->arch = EM_ARCH_ARM;
	} else if (!strcmp(arg, "arm64")) {
		opt->arch = EM_ARCH_ARM64;
	} else {
		fprintf(stderr, "%s: %s: unknown arch '%s': want arm or arm64\n",
			progname, cmd, arg);
		return -1;
	}
	return 0;
}

static bool is_dtb(const char *path)
{
	unsigned char magic[4];
	struct stat st;
	bool ret;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	ret = fread(magic, 1, 4, f) == 4 &&
	      fdt_magic(magic) == FDT_MAGIC;
	fclose(f);
	return ret;
}

/* A DTB, or a debugfs tree or dump; prints the error and returns -1 */
int load_source(struct em_model *m, const char *path,
		const struct em_options *opt, bool dtb)
{
	int k, ret;

	if (dtb || is_dtb(path))
		ret = em_model_load(m, path, opt);
	else
		ret = em_debugfs_load(m, path);
	if (!ret)
		return 0;
	if (m->nr_failed) {
		for (k = 0; k < m->nr_pds; k++)
			if (m->pd[k].error[0])
				fprintf(stderr, "%s: %s\n", progname,
					m->pd[k].error);
	} else {
		fprintf(stderr, "%s: %s\n", progname, m->error);
	}
	return -1;
}

struct em_model *new_model(void)
{
	struct em_model *m = calloc(1, sizeof(*m));

	if (!m)
		fprintf(stderr, "%s: out of memory\n", progname);
	return m;
}

void free_model(struct em_model *m)
{
	if (!m)
		return;
	em_model_free(m);
	free(m);
}

int parse_args(const char *cmd, void (*usage)(FILE *out),
	       const char *allowed, int argc, char **argv,
	       struct cmd_args *a)
{
	static const struct option longopts[] = {
		{ "format",	required_argument,	NULL, 'f' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "tree",	required_argument,	NULL, 't' },
		{ "arch",	required_argument,	NULL, 'a' },
		{ "boot-freq",	required_argument,	NULL, 'b' },
		{ "legacy",	no_argument,		NULL, 'l' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "registered",	no_argument,		NULL, 'r' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:jt:a:b:lo:rh", longopts,
				NULL)) != -1) {
		if (c != '?' && c != ':' && c != 'h' && !strchr(allowed, c)) {
			fprintf(stderr, "%s: %s: option '%s' does not apply\nTry '%s %s --help'.\n",
				progname, cmd, argv[optind - 1], progname, cmd);
			return -1;
		}
		switch (c) {
		case 'f':
			for (a->format = 0; a->format <= FORMAT_JSON; a->format++)
				if (!strcmp(optarg, format_names[a->format]))
					break;
			if (a->format > FORMAT_JSON) {
				fprintf(stderr,
					"%s: %s: unknown format '%s': want table, debugfs or json\n",
					progname, cmd, optarg);
				return -1;
			}
			break;
		case 'j':
			a->format = FORMAT_JSON;
			break;
		case 't':
			a->tree = optarg;
			break;
		case 'a':
			if (parse_arch(cmd, optarg, &a->opt))
				return -1;
			break;
		case 'b':
			if (parse_boot_freq(cmd, optarg, &a->opt))
				return -1;
			break;
		case 'l':
			a->legacy = true;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'r':
			a->registered = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			fprintf(stderr,
				"%s: %s: bad option or missing argument: '%s'\nTry '%s %s --help'.\n",
				progname, cmd, argv[optind - 1], progname, cmd);
			return -1;
		}
	}
	return 0;
}

int want_args(const char *cmd, int argc, int min, int max, const char *what)
{
	if (argc - optind >= min && argc - optind <= max)
		return 0;
	fprintf(stderr, "%s: %s: %s %s\nTry '%s %s --help'.\n", progname, cmd,
		argc - optind < min ? "missing" : "too many arguments; want",
		what, progname, cmd);
	return -1;
}

static int cmd_help(int argc, char **argv);

static const struct eas_em_command eas_em_help = {
	.name = "help",
	.fn = cmd_help,
	.summary = "the help of a command",
};

static const struct eas_em_command * const commands[] = {
	&eas_em_compute, &eas_em_show, &eas_em_diff, &eas_em_check,
	&eas_em_plot, &eas_em_fit, &eas_em_help,
};

#define NR_COMMANDS	((int)ARRAY_SIZE(commands))

static const struct eas_em_command *find_command(const char *name)
{
	int i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void print_usage(FILE *out)
{
	int i;

	fprintf(out,
		"Usage: %s [--help] [--version] COMMAND [ARGS]\n"
		"\n"
		"Energy Model and Energy-Aware Scheduling tools for Linux 6.12 (arm, arm64).\n"
		"\n"
		"Commands:\n", progname);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(out,
		"\n"
		"'%s COMMAND --help' tells more.\n"
		"Exit status: 0 ok, 1 check failed, 2 bad input or usage.\n",
		progname);
}

static int cmd_help(int argc, char **argv)
{
	const struct eas_em_command *cmd;

	if (argc < 2) {
		print_usage(stdout);
		return EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd || !cmd->usage) {
		fprintf(stderr, "%s: help: no command '%s'\n", progname, argv[1]);
		return EXIT_BAD;
	}
	cmd->usage(stdout);
	return EXIT_OK;
}

/*
 * What a command left in stdout's buffer (a usage text, say) written out
 * and stdout closed: a failed write is exit 2 with a message, unless the
 * command has failed already (it said why).
 */
static int check_stdout(int ret)
{
	errno = 0;
	if (ret != EXIT_BAD &&
	    (fflush(stdout) || ferror(stdout) || fclose(stdout))) {
		fprintf(stderr, "%s: writing to stdout: %s\n", progname,
			strerror(errno ? errno : EIO));
		return EXIT_BAD;
	}
	return ret;
}

/*
 * Open fds 0-2 on /dev/null where they are closed, before anything else
 * is opened: else a file eas-em opens (a DTB, plot's pipe to gnuplot, a
 * --tree file) would become stdout, and a closed stdout would pass for an
 * output. Return 0, or -1 if stdout was closed (said on stderr).
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
				"%s: fd %d is closed and /dev/null cannot take it: %s\n",
				progname, fd, strerror(errno));
			return -1;
		}
	}
	if (out_closed) {
		fprintf(stderr,
			"%s: stdout is closed: what eas-em prints would be lost; fix: give it somewhere to go (a file, a pipe)\n",
			progname);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct eas_em_command *cmd;

	if (std_fds())
		return EXIT_BAD;
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_BAD;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return check_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s (Linux 6.12 arm32 Energy Model)\n", progname,
		       EAS_EM_VERSION);
		return check_stdout(EXIT_OK);
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "%s: unknown command '%s'\nTry '%s --help'.\n",
			progname, argv[1], progname);
		return EXIT_BAD;
	}
	return check_stdout(cmd->fn(argc - 1, argv + 1));
}
