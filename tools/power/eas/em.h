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

/* arm32 allows up to 32 CPUs (NR_CPUS); exynos_defconfig sets 8 */
#define EM_NR_CPUS		32
#define EM_DEFCONFIG_NR_CPUS	8

/* include/linux/energy_model.h, 32-bit */
#define EM_MAX_NUM_CPUS		16
#define EM_MAX_POWER		64000000U

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
 * @node:	offset of the OPP node in the blob
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
 * @pd:			index of its performance domain
 * @boot_fref:		capacity_freq_ref when the DT is parsed (kHz, or 1)
 * @early_capacity:	cpu_scale until every CPU has a cpufreq policy
 * @capacity:		cpu_scale afterwards (the final one)
 */
struct em_cpu {
	int node;
	int opp_table;
	int pd;
	uint32_t boot_fref;
	uint32_t early_capacity;
	uint32_t capacity;
};

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
 */
struct em_pd {
	char name[16];
	int first_cpu;
	uint32_t cpus;
	uint32_t max_freq;
	int nr_opps;
	struct em_opp *opps;
	uint32_t capacity;
	uint32_t flags;
	int nr_states;
	struct em_state *states;
};

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
 * @boot_none:		no CPU clock can be read when arm32 parses the
 *			capacities (its provider probes later): all 1
 * @nr_boot_rates:	number of entries in @boot_rates
 * @boot_rates:		the clocks' rates at that time; a domain not listed
 *			runs at its highest OPP, as a boot loader leaves it
 */
struct em_options {
	bool boot_none;
	int nr_boot_rates;
	struct em_boot_rate boot_rates[EM_NR_CPUS];
};

/**
 * struct em_model - what the kernel builds from one DTB
 * @file:		the DTB file name, for messages
 * @fdt:		the blob
 * @nr_cpus:		number of possible CPUs
 * @cpu:		the CPUs, by logical number
 * @nr_pds:		number of performance domains
 * @pd:			the performance domains, in creation order
 * @capacity_from_dt:	capacity-dmips-mhz was found on every CPU
 * @error:		why the model could not be built
 * @nr_notes:		number of entries in @notes
 * @notes:		what the kernel does that one may not expect
 */
struct em_model {
	const char *file;
	void *fdt;
	int nr_cpus;
	struct em_cpu cpu[EM_NR_CPUS];
	int nr_pds;
	struct em_pd pd[EM_NR_CPUS];
	bool capacity_from_dt;
	char error[EM_MSG_LEN];
	int nr_notes;
	char notes[EM_MAX_NOTES][EM_MSG_LEN];
};

int em_model_load(struct em_model *m, const char *file,
		  const struct em_options *opt);
void em_model_free(struct em_model *m);
int em_cpulist(char *buf, size_t len, uint32_t cpus);

#endif /* __EAS_EM_H */
