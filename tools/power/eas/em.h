/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Energy Model that Linux 6.12 builds from a device tree on arm32,
 * computed in user space with the kernel's own integer arithmetic.
 *
 * Every 'unsigned long' of the kernel code this mirrors is 32 bits wide on
 * arm32, so it is a uint32_t here, and the sums that overflow or truncate
 * in the kernel overflow or truncate here in the same way.
 */
#ifndef __EAS_EM_H
#define __EAS_EM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * NR_CPUS: arm32 allows 2 to 32 (exynos_defconfig sets 8); arm64 allows 2
 * to 4096 and defaults to 512 (arch/arm64/Kconfig of 6.12), which
 * defconfig keeps. eas-em models up to the arm64 default.
 */
#define EM_NR_CPUS_ARM		32
#define EM_NR_CPUS_ARM64	512
#define EM_NR_CPUS		EM_NR_CPUS_ARM64
#define EM_DEFCONFIG_NR_CPUS	8

/* "%*pbl" of any set of EM_NR_CPUS CPUs: at most 0,2,4,...,510 */
#define EM_CPULIST_LEN		2048

/**
 * struct em_cpumask - a set of CPUs, bit N for CPU N
 * @bits:	the bits, 64 CPUs a word
 */
struct em_cpumask {
	uint64_t bits[EM_NR_CPUS / 64];
};

static inline void em_cpu_set(struct em_cpumask *m, int cpu)
{
	m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline bool em_cpu_test(const struct em_cpumask *m, int cpu)
{
	return m->bits[cpu / 64] >> (cpu % 64) & 1;
}

static inline int em_cpus_weight(const struct em_cpumask *m)
{
	int i, n = 0;

	for (i = 0; i < EM_NR_CPUS / 64; i++)
		n += __builtin_popcountll(m->bits[i]);
	return n;
}

/* The first CPU of @m, or -1 if it is empty */
static inline int em_cpus_first(const struct em_cpumask *m)
{
	int i;

	for (i = 0; i < EM_NR_CPUS / 64; i++)
		if (m->bits[i])
			return i * 64 + __builtin_ctzll(m->bits[i]);
	return -1;
}

/* The last CPU of @m, or -1 if it is empty */
static inline int em_cpus_last(const struct em_cpumask *m)
{
	int i;

	for (i = EM_NR_CPUS / 64 - 1; i >= 0; i--)
		if (m->bits[i])
			return i * 64 + 63 - __builtin_clzll(m->bits[i]);
	return -1;
}

static inline bool em_cpus_equal(const struct em_cpumask *a,
				 const struct em_cpumask *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

static inline bool em_cpus_intersect(const struct em_cpumask *a,
				     const struct em_cpumask *b)
{
	int i;

	for (i = 0; i < EM_NR_CPUS / 64; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

static inline void em_cpus_or(struct em_cpumask *a, const struct em_cpumask *b)
{
	int i;

	for (i = 0; i < EM_NR_CPUS / 64; i++)
		a->bits[i] |= b->bits[i];
}

/* include/linux/energy_model.h: 16 on 32-bit, 4096 on 64-bit */
#define EM_MAX_NUM_CPUS_32	16
#define EM_MAX_NUM_CPUS_64	4096
#define EM_MAX_POWER		64000000U

/* v5.0 to v6.6: build_perf_domains() refused more than this */
#define EM_MAX_COMPLEXITY	2048

/**
 * enum em_arch - the kernel the EM is computed for
 * @EM_ARCH_AUTO:	guess from the CPUs' compatible strings
 * @EM_ARCH_ARM:	arm32: 32-bit unsigned long, capacities in
 *			possible-CPU order, table_efficiency fallback
 * @EM_ARCH_ARM64:	arm64: 64-bit, capacities from cpu-map only
 */
enum em_arch {
	EM_ARCH_AUTO,
	EM_ARCH_ARM,
	EM_ARCH_ARM64,
};

#define EM_PERF_DOMAIN_MICROWATTS		0x1
#define EM_PERF_DOMAIN_SKIP_INEFFICIENCIES	0x2
#define EM_PERF_STATE_INEFFICIENT		0x1

#define SCHED_CAPACITY_SHIFT	10
#define SCHED_CAPACITY_SCALE	1024U

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/* as in tools/include/linux/compiler.h; the Makefile defines it */
#ifndef __printf
#error "build with tools/power/eas/Makefile, which defines __printf()"
#endif

#define EM_MSG_LEN		1024
#define EM_MAX_NOTES		32

/**
 * struct em_opp - one operating point as the OPP core keeps it
 * @rate:	opp-hz, as an arm32 unsigned long (Hz)
 * @u_volt:	supplies[0].u_volt: the first (target) cell of opp-microvolt
 * @u_watt:	supplies[0].u_watt: opp-microwatt, 0 if absent
 * @turbo:	the OPP has turbo-mode (a cpufreq boost frequency)
 * @node:	offset of the OPP node in the blob (the cpu node for a
 *		legacy operating-points table)
 */
struct em_opp {
	uint32_t rate;
	uint32_t u_volt;
	uint32_t u_watt;
	bool turbo;
	int node;
};

/**
 * struct em_state - one performance state, as in struct em_perf_state
 * @frequency:		kHz
 * @power:		uW
 * @performance:	capacity units
 * @cost:		10 * power / performance
 * @flags:		EM_PERF_STATE_INEFFICIENT
 */
struct em_state {
	uint32_t frequency;
	uint32_t power;
	uint32_t performance;
	uint32_t cost;
	uint32_t flags;
};

/**
 * struct em_cpu - a possible CPU, numbered as arm32 numbers them
 * @node:		offset of the cpu node in the blob
 * @opp_table:		offset of its operating-points-v2 table node
 * @v1:			its OPPs come from a legacy operating-points table
 * @pd:			index of its performance domain
 * @raw:		capacity-dmips-mhz, if @has_raw
 * @has_raw:		capacity-dmips-mhz is present
 * @boot_fref:		capacity_freq_ref when the DT is parsed (kHz, or 1)
 * @early_capacity:	cpu_scale until every CPU has a cpufreq policy
 * @capacity:		cpu_scale afterwards (the final one)
 * @upstream_capacity:	without capacity-dmips-mhz on every CPU: the
 *			cpu_scale of Linux 6.12 without the series, whose
 *			table_efficiency fallback scales around a middle CPU
 *			(up to 1535); 0 otherwise
 */
struct em_cpu {
	int node;
	int opp_table;
	bool v1;
	int pd;
	uint32_t raw;
	bool has_raw;
	uint32_t boot_fref;
	uint32_t early_capacity;
	uint32_t capacity;
	uint32_t upstream_capacity;
};

/**
 * enum em_unit - the unit of an EM's power values
 * @EM_UNIT_UW:		microwatts (a DTB; debugfs v5.19+ with the
 *			MICROWATTS flag)
 * @EM_UNIT_MW:		milliwatts (debugfs v5.0-v5.10, and v5.11-v5.18 whose
 *			units file says milliWatts)
 * @EM_UNIT_ABSTRACT:	an abstract scale (units "bogoWatts", or v5.19+
 *			without the MICROWATTS flag)
 */
enum em_unit {
	EM_UNIT_UW,
	EM_UNIT_MW,
	EM_UNIT_ABSTRACT,
};

/**
 * enum em_cost - how an EM's cost was computed
 * @EM_COST_PERF:	v6.9+: 10 * power / performance
 * @EM_COST_FREQ:	before v6.9: power * fmax / frequency
 */
enum em_cost {
	EM_COST_PERF,
	EM_COST_FREQ,
};

const char *em_unit_name(enum em_unit unit);
const char *em_cost_name(enum em_cost cost);

/**
 * struct em_pd - a performance domain: one cpufreq-dt policy and its EM
 * @name:	dev_name() of its first CPU: the debugfs directory name
 * @first_cpu:	policy->cpu
 * @cpus:	policy->related_cpus, bit N for CPU N
 * @max_freq:	policy->cpuinfo.max_freq (kHz, boost OPPs left out)
 * @nr_opps:	number of OPPs in @opps
 * @opps:	the OPP table of the domain, in ascending rate order
 * @capacity:	the final capacity of @first_cpu
 * @flags:	EM_PERF_DOMAIN_*
 * @nr_states:	number of entries in @states
 * @states:	the EM table, in ascending frequency order
 * @dt_power:	power from opp-microwatt, not from the coefficient
 * @coeff:	dynamic-power-coefficient of @first_cpu (0 if absent)
 * @have:	EM_HAVE_* (a debugfs tree may lack some files)
 * @unit:	the unit of the states' power (from a debugfs tree's layout)
 * @cost:	the formula of the states' cost (from the layout)
 * @error:	why the kernel registers no EM for this domain ("" if it does)
 * @why_all:	why cpufreq-dt fell back to one policy for all CPUs, or ""
 */
struct em_pd {
	char name[16];
	int first_cpu;
	struct em_cpumask cpus;
	uint32_t max_freq;
	int nr_opps;
	struct em_opp *opps;
	uint32_t capacity;
	uint32_t flags;
	int nr_states;
	struct em_state *states;
	bool dt_power;
	uint32_t coeff;
	unsigned int have;
	enum em_unit unit;
	enum em_cost cost;
	char error[EM_MSG_LEN];
	char why_all[256];
};

/* what a debugfs tree had; a DTB gives all */
#define EM_HAVE_FLAGS		0x1
#define EM_HAVE_PERFORMANCE	0x2
#define EM_HAVE_INEFFICIENT	0x4
#define EM_HAVE_ALL		0x7

/**
 * struct em_boot_rate - rate of a cluster clock when the DT is parsed
 * @cpu:	any CPU of the performance domain
 * @khz:	clk_get_rate() / 1000 of its clock at that time
 */
struct em_boot_rate {
	int cpu;
	uint32_t khz;
};

/**
 * struct em_options - what the DT does not say
 * @arch:		the kernel's architecture
 * @boot_none:		no CPU clock can be read when arm32 parses the
 *			capacities (its provider probes later): all 1
 * @nr_boot_rates:	number of entries in @boot_rates
 * @boot_rates:		the clocks' rates at that time; a domain not listed
 *			runs at its highest OPP, as a boot loader leaves it
 */
struct em_options {
	enum em_arch arch;
	bool boot_none;
	int nr_boot_rates;
	struct em_boot_rate boot_rates[EM_NR_CPUS];
};

/**
 * struct em_model - what the kernel builds from one DTB
 * @file:		the DTB file name (or debugfs path), for messages
 * @fdt:		the blob (NULL for a model read from debugfs)
 * @arch:		EM_ARCH_ARM or EM_ARCH_ARM64
 * @arch_guessed:	@arch was guessed from the CPUs
 * @bad_file:		the file is no readable DTB at all
 * @layout:		for debugfs: "6.9+", "5.16+", "5.9+" or "5.0 (pdN/cs:)"
 * @nr_cpus:		number of possible CPUs
 * @cpu:		the CPUs, by logical number
 * @nr_pds:		number of performance domains
 * @pd:			the performance domains, in creation order
 * @capacity_from_dt:	capacity-dmips-mhz was found on every CPU
 * @cap_first_missing:	the first CPU the kernel found without it, or -1
 * @cap_fallback:	what the kernel did instead, for messages
 * @cap_wrap:		arm32: a capacity-dmips-mhz times kHz wrapped 32 bits,
 *			so every capacity is wrong: why, or ""
 * @nr_failed:		performance domains the kernel registers no EM for
 * @smt:		cpu-map has thread nodes (arm64): no EAS
 * @android:		Android's sched-energy-costs or energy-costs are there
 * @error:		why the model could not be built
 * @nr_notes:		number of entries in @notes
 * @notes:		what the kernel does that one may not expect
 */
struct em_model {
	const char *file;
	void *fdt;
	enum em_arch arch;
	bool arch_guessed;
	bool bad_file;
	char layout[32];
	int nr_cpus;
	struct em_cpu cpu[EM_NR_CPUS];
	int nr_pds;
	struct em_pd pd[EM_NR_CPUS];
	bool capacity_from_dt;
	int cap_first_missing;
	char cap_fallback[EM_MSG_LEN];
	char cap_wrap[EM_MSG_LEN];
	int nr_failed;
	bool smt;
	bool android;
	char error[EM_MSG_LEN];
	int nr_notes;
	char notes[EM_MAX_NOTES][EM_MSG_LEN];
};

int em_model_load(struct em_model *m, const char *file,
		  const struct em_options *opt);
int em_model_load_mem(struct em_model *m, const char *name, const void *buf,
		      size_t size, const struct em_options *opt);
void em_model_free(struct em_model *m);
int em_cpulist(char *buf, size_t len, const struct em_cpumask *cpus);
int em_parse_cpulist(const char *s, struct em_cpumask *cpus);
unsigned int em_max_num_cpus(const struct em_model *m);
const char *em_file_type(unsigned int mode);

/* debugfs.c */
int em_debugfs_load(struct em_model *m, const char *path);
int em_lines_load_mem(struct em_model *m, const char *name, const char *buf,
		      size_t size);

/* check.c */
struct em_check_options {
	bool legacy;
};

int em_check(FILE *out, const struct em_model *m,
	     const struct em_check_options *opt);

#endif /* __EAS_EM_H */
