// SPDX-License-Identifier: GPL-2.0
/*
 * eas-em check: what Linux 6.12 will do with the Energy Model and EAS of a
 * DTB, one finding a line, each with the kernel's reaction and the fix.
 *
 * The EM itself comes from em.c, which follows the kernel step by step;
 * this file judges it: the kernel's own refusals (most only at debug
 * level), the fall backs it takes silently, values that work but are
 * implausible, and whether EAS can start (kernel/sched/topology.c).
 */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "em.h"

/* dynamic-power-coefficient of upstream DTs: 70 to 990 for nearly all */
#define COEFF_SANE_MIN		30
#define COEFF_SANE_MAX		1500

/* v5.x: power in mW, at most 0xffff */
#define LEGACY_MAX_POWER	0xffffU

enum severity {
	SEV_ERROR,
	SEV_WARNING,
	SEV_INFO,
};

struct check {
	FILE *out;
	const struct em_model *m;
	int count[3];
};

static const char * const sev_names[] = {
	[SEV_ERROR]	= "error",
	[SEV_WARNING]	= "warning",
	[SEV_INFO]	= "info",
};

static void __printf(3, 4) report(struct check *c, enum severity sev,
				  const char *fmt, ...)
{
	va_list ap;

	c->count[sev]++;
	fprintf(c->out, "%s: ", sev_names[sev]);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
}

static const char *node_path(const struct em_model *m, int node, char *buf,
			     size_t len)
{
	if (fdt_get_path(m->fdt, node, buf, len))
		snprintf(buf, len, "(node at offset %d)", node);
	return buf;
}

static const char *cpu_path(const struct em_model *m, int cpu, char *buf,
			    size_t len)
{
	return node_path(m, m->cpu[cpu].node, buf, len);
}

/*
 * The OPP behind each perf state of @pd, NULL where there is none: both
 * lists ascend, so one merge, O(n) in the number of OPPs. Return the map
 * (free() it), or NULL if out of memory.
 */
static const struct em_opp **state_opps(const struct em_pd *pd)
{
	const struct em_opp **map;
	int i, j = 0;

	map = calloc(pd->nr_states ? pd->nr_states : 1, sizeof(*map));
	if (!map)
		return NULL;
	for (i = 0; i < pd->nr_states; i++) {
		while (j < pd->nr_opps &&
		       pd->opps[j].rate / 1000 < pd->states[i].frequency)
			j++;
		if (j < pd->nr_opps &&
		    pd->opps[j].rate / 1000 == pd->states[i].frequency)
			map[i] = &pd->opps[j];
	}
	return map;
}

static void check_capacity(struct check *c)
{
	const struct em_model *m = c->m;
	uint32_t first = 0;
	bool all_equal = true;
	char path[256];
	int cpu, k, i;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (!cpu)
			first = m->cpu[cpu].capacity;
		else if (m->cpu[cpu].capacity != first)
			all_equal = false;
	}
	if (m->cap_fallback[0]) {
		int node = m->cap_first_missing >= 0 ?
			   m->cpu[m->cap_first_missing].node :
			   fdt_path_offset(m->fdt, "/cpus");

		report(c, all_equal ? SEV_ERROR : SEV_WARNING,
		       "%s: %s: capacity-dmips-mhz: %s%s; fix: give every cpu node capacity-dmips-mhz (1024 on the biggest core, the others scaled by their DMIPS/MHz)%s",
		       m->file, node_path(m, node, path, sizeof(path)),
		       m->cap_fallback,
		       all_equal ? ", so all CPUs look alike and EAS cannot start" : "",
		       m->arch == EM_ARCH_ARM64 ? ", listed in /cpus/cpu-map" : "");
	}

	/*
	 * Capacities are out of 1024: schedutil maps util to a frequency
	 * as util * 1.25 * max_freq / capacity, and the EM's performance is
	 * capacity * f / fmax. The series keeps the fallback at most 1024;
	 * Linux 6.12 as released does not.
	 */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct em_cpu *p = &m->cpu[cpu];
		uint32_t cap = p->capacity > SCHED_CAPACITY_SCALE ?
			       p->capacity : p->upstream_capacity;

		if (cap <= SCHED_CAPACITY_SCALE)
			continue;
		if (p->capacity > SCHED_CAPACITY_SCALE)
			report(c, SEV_ERROR,
			       "%s: %s: capacity %u is above 1024: the scheduler takes capacities out of 1024, so schedutil (next_freq = 1.25 * max_freq * util / capacity) keeps this CPU below its top OPPs and the EM's performance no longer equals its util; fix: give every cpu node capacity-dmips-mhz",
			       m->file, cpu_path(m, cpu, path, sizeof(path)),
			       cap);
		else
			report(c, SEV_ERROR,
			       "%s: %s: capacity %u, above 1024, with Linux 6.12 as released (its table_efficiency fallback scales around a middle CPU; with the series' \"ARM: topology: scale the table_efficiency capacities to 1024\" it is %u): the scheduler takes capacities out of 1024, so schedutil (next_freq = 1.25 * max_freq * util / capacity) keeps this CPU below its top OPPs and the EM's performance no longer equals its util; fix: give every cpu node capacity-dmips-mhz",
			       m->file, cpu_path(m, cpu, path, sizeof(path)),
			       cap, p->capacity);
		break;
	}

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct em_cpu *p = &m->cpu[cpu];
		uint32_t fmax;

		if (!p->has_raw)
			continue;
		if (!p->raw) {
			report(c, SEV_ERROR,
			       "%s: %s: capacity-dmips-mhz: 0: its capacity is 0, every perf state of its EM gets performance 0 and the cost divides by zero (\"Division by zero in kernel.\" on arm32); fix: a value from 1 to 1024",
			       m->file, cpu_path(m, cpu, path, sizeof(path)));
			continue;
		}
		fmax = p->pd >= 0 ? m->pd[p->pd].max_freq : 0;
		if (m->arch == EM_ARCH_ARM &&
		    ((uint64_t)p->raw * fmax > UINT32_MAX ||
		     (uint64_t)p->raw * p->boot_fref > UINT32_MAX))
			report(c, SEV_ERROR,
			       "%s: %s: capacity-dmips-mhz: %u * %u kHz does not fit 32 bits: arm32 computes raw_capacity * capacity_freq_ref in an unsigned long, it wraps, and the capacities come out wrong (this CPU gets %u); fix: keep capacity-dmips-mhz at most 1024",
			       m->file, cpu_path(m, cpu, path, sizeof(path)),
			       p->raw, fmax, p->capacity);
		else if (p->raw > SCHED_CAPACITY_SCALE)
			report(c, SEV_INFO,
			       "%s: %s: capacity-dmips-mhz: %u is above 1024: harmless (the kernel normalizes to the largest), but the binding scales the biggest core to 1024",
			       m->file, cpu_path(m, cpu, path, sizeof(path)),
			       p->raw);
	}

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		for (i = 0; i < pd->nr_states; i++)
			if (!pd->states[i].performance) {
				report(c, SEV_ERROR,
				       "%s: %s: pd %s: performance 0 at %u kHz (capacity %u * %u / %u kHz): the cost divides by zero (\"Division by zero in kernel.\" on arm32) and EAS sees a free state; fix: raise capacity-dmips-mhz or drop OPPs below fmax / capacity",
				       m->file,
				       cpu_path(m, pd->first_cpu, path, sizeof(path)),
				       pd->name, pd->states[i].frequency,
				       pd->capacity, pd->states[i].frequency,
				       pd->states[pd->nr_states - 1].frequency);
				break;
			}
	}
}

static void check_coefficients(struct check *c)
{
	const struct em_model *m = c->m;
	char path[256], path2[256];
	int k, j, cpu;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		if (pd->dt_power || !pd->coeff)
			continue;
		if (pd->coeff < COEFF_SANE_MIN || pd->coeff > COEFF_SANE_MAX)
			report(c, SEV_WARNING,
			       "%s: %s: dynamic-power-coefficient: %u uW/MHz/V^2 is implausible (upstream DTs use %d to %d, nearly all 70 to 990): the EM powers are off by that much, and EAS compares them across clusters; fix: measure the cluster's power at two OPPs (P = coeff * V^2 * MHz)",
			       m->file,
			       cpu_path(m, pd->first_cpu, path, sizeof(path)),
			       pd->coeff, COEFF_SANE_MIN, COEFF_SANE_MAX);
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			uint32_t other;
			const void *p;
			int len;

			if (!em_cpu_test(&pd->cpus, cpu) || cpu == pd->first_cpu)
				continue;
			p = fdt_getprop(m->fdt, m->cpu[cpu].node,
					"dynamic-power-coefficient", &len);
			if (!p || len != 4)
				continue;
			other = fdt32_ld(p);
			if (other != pd->coeff) {
				report(c, SEV_WARNING,
				       "%s: %s: dynamic-power-coefficient: %u, but the EM of pd %s uses its policy CPU's %u only; fix: the same value on every CPU of a cluster",
				       m->file,
				       cpu_path(m, cpu, path, sizeof(path)),
				       other, pd->name, pd->coeff);
				break;
			}
		}
	}

	/* LITTLE must cost less per MHz than big at the same voltage */
	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *l = &m->pd[k];

		if (l->dt_power || !l->coeff || !l->nr_states)
			continue;
		for (j = 0; j < m->nr_pds; j++) {
			const struct em_pd *b = &m->pd[j];

			if (b->dt_power || !b->coeff || !b->nr_states ||
			    b->capacity <= l->capacity || l->coeff <= b->coeff)
				continue;
			report(c, SEV_WARNING,
			       "%s: %s: dynamic-power-coefficient: %u on the LITTLE pd %s (capacity %u) is above the %u of the big pd %s (capacity %u, %s): the LITTLE CPUs would burn more power per MHz than the big ones, so EAS moves work to the big CPUs; fix: check the two values (swapped?)",
			       m->file,
			       cpu_path(m, l->first_cpu, path, sizeof(path)),
			       l->coeff, l->name, l->capacity, b->coeff,
			       b->name, b->capacity,
			       cpu_path(m, b->first_cpu, path2, sizeof(path2)));
		}
	}
}

static uint32_t min_cost(const struct em_pd *pd, uint32_t *khz)
{
	uint32_t min = UINT32_MAX;
	int i;

	for (i = 0; i < pd->nr_states; i++)
		if (pd->states[i].cost < min) {
			min = pd->states[i].cost;
			*khz = pd->states[i].frequency;
		}
	return min;
}

/*
 * A LITTLE perf domain whose every state costs more than the cheapest
 * state of a bigger one: the EM says the big CPUs do any work for less
 * energy, so EAS places everything there.
 */
static void check_costs(struct check *c)
{
	const struct em_model *m = c->m;
	uint32_t lmin, bmin, lkhz = 0, bkhz = 0;
	int k, j;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *l = &m->pd[k];

		if (!l->nr_states)
			continue;
		lmin = min_cost(l, &lkhz);
		for (j = 0; j < m->nr_pds; j++) {
			const struct em_pd *b = &m->pd[j];

			if (!b->nr_states || b->capacity <= l->capacity)
				continue;
			bmin = min_cost(b, &bkhz);
			if (lmin <= bmin)
				continue;
			report(c, SEV_WARNING,
			       "%s: pd %s: every perf state costs more than the cheapest of the bigger pd %s (cost %u at %u kHz against %u at %u kHz): the EM says the big CPUs do any work for less energy, so EAS puts every task on them and the LITTLE CPUs stay idle; fix: check the LITTLE cluster's dynamic-power-coefficient (or opp-microwatt) and opp-microvolt against measurements",
			       m->file, l->name, b->name, lmin, lkhz, bmin,
			       bkhz);
		}
	}
}

static void check_frequencies(struct check *c)
{
	const struct em_model *m = c->m;
	char path[256];
	int k, node;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];
		int table = m->cpu[pd->first_cpu].opp_table;
		uint64_t prev = 0, hz;
		const void *p;
		int len;

		if (m->cpu[pd->first_cpu].v1 || table < 0)
			continue;
		fdt_for_each_subnode(node, m->fdt, table) {
			p = fdt_getprop(m->fdt, node, "opp-hz", &len);
			if (!p || len < 8)
				continue;
			hz = fdt64_ld(p);
			if (hz < prev) {
				report(c, SEV_INFO,
				       "%s: %s: opp-hz: %llu Hz after %llu Hz: the OPP core sorts the OPPs, so the EM is still in increasing order; fix (cosmetic): list OPPs by frequency",
				       m->file,
				       node_path(m, node, path, sizeof(path)),
				       (unsigned long long)hz,
				       (unsigned long long)prev);
				break;
			}
			prev = hz;
		}
	}
}

/*
 * Every finding here is O(n) in the number n of perf states (OPPs) of a
 * perf domain, after the O(n) merge of state_opps(); loading the DTB is
 * O(n log n) (em.c). Comparing each state with every faster one made
 * check cubic: 49 s for 5000 OPPs per table.
 */
static void check_states(struct check *c)
{
	const struct em_model *m = c->m;
	char path[512], table[256], list[1024];
	const struct em_opp **opp;
	bool v2;
	int k, i, j, n, *lower, *stack, top;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];
		uint32_t floor = 0;

		if (!pd->nr_states)
			continue;
		v2 = !m->cpu[pd->first_cpu].v1;
		if (v2)
			node_path(m, m->cpu[pd->first_cpu].opp_table, table,
				  sizeof(table));
		opp = state_opps(pd);
		lower = calloc(pd->nr_states, sizeof(*lower));
		stack = calloc(pd->nr_states, sizeof(*stack));
		if (!opp || !lower || !stack) {
			report(c, SEV_ERROR, "%s: out of memory", m->file);
			free(opp);
			free(lower);
			free(stack);
			return;
		}

		/* inefficient states */
		n = 0;
		list[0] = '\0';
		for (i = 0; i < pd->nr_states; i++) {
			if (!(pd->states[i].flags & EM_PERF_STATE_INEFFICIENT)) {
				if (!floor)
					floor = pd->states[i].frequency;
				continue;
			}
			if (n < (int)sizeof(list))
				n += snprintf(list + n, sizeof(list) - n,
					      "%s%u", n ? " " : "",
					      pd->states[i].frequency);
		}
		if (n)
			report(c, SEV_INFO,
			       "%s: pd %s: inefficient states (kHz) %s: a faster state costs no more energy per unit of work, so the EM skips them (SKIP_INEFFICIENCIES) and schedutil never selects them (CPUFREQ_RELATION_LE); lowest frequency in use %u kHz",
			       m->file, pd->name, list, floor);

		/* nothing efficient below the top: one frequency in use */
		if (pd->nr_states > 1 &&
		    floor == pd->states[pd->nr_states - 1].frequency)
			report(c, SEV_WARNING,
			       "%s: pd %s: every perf state below the top one (%u kHz) is inefficient, so schedutil, which picks only efficient frequencies, runs these CPUs at %u kHz whenever they run, and the EM's cost is the same for any util; %s",
			       m->file, pd->name, floor, floor,
			       pd->dt_power ?
			       "fix: give each OPP its measured opp-microwatt" :
			       "fix: give each OPP its real opp-microvolt (one voltage for all makes the energy per cycle equal), or opp-microwatt");

		/*
		 * An OPP at a higher voltage than a faster one: for each, the
		 * nearest faster OPP of a lower voltage, found from the top
		 * down with a stack of candidates of rising voltage (each
		 * state pushed and popped once: O(n)).
		 */
		for (i = pd->nr_states - 1, top = 0; i >= 0 && !pd->dt_power; i--) {
			lower[i] = -1;
			if (!opp[i])
				continue;
			while (top && opp[stack[top - 1]]->u_volt >= opp[i]->u_volt)
				top--;
			if (top)
				lower[i] = stack[top - 1];
			stack[top++] = i;
		}
		for (i = 0; i < pd->nr_states && !pd->dt_power; i++) {
			const struct em_opp *o = opp[i], *f;

			if (!o || lower[i] < 0)
				continue;
			f = opp[lower[i]];
			/* fdt_get_path() walks the blob: O(n) a call */
			if (v2)
				snprintf(path, sizeof(path), "%s/%s", table,
					 fdt_get_name(m->fdt, o->node, NULL));
			else
				node_path(m, o->node, path, sizeof(path));
			report(c, SEV_WARNING,
			       "%s: %s: opp-microvolt: %u uV at %u kHz is above the %u uV of the faster %u kHz: this OPP costs more energy and runs slower, the EM marks it inefficient and schedutil never uses it; fix: lower its voltage or drop the OPP",
			       m->file, path,
			       o->u_volt, pd->states[i].frequency,
			       f->u_volt, pd->states[lower[i]].frequency);
		}

		/* OPPs sharing a voltage */
		for (i = 0; i < pd->nr_states && !pd->dt_power; i = j) {
			const struct em_opp *o = opp[i];

			for (j = i + 1; o && j < pd->nr_states; j++) {
				const struct em_opp *f = opp[j];

				if (!f || f->u_volt != o->u_volt)
					break;
			}
			if (!o || j - i < 2)
				continue;
			report(c, SEV_INFO,
			       "%s: pd %s: %d OPPs share %u uV (%u to %u kHz): at one voltage the energy per cycle is the same, so the slower ones save no energy (they only lower performance); the EM gives them the same cost up to integer rounding",
			       m->file, pd->name, j - i, o->u_volt,
			       pd->states[i].frequency,
			       pd->states[j - 1].frequency);
		}
		free(opp);
		free(lower);
		free(stack);
	}
}

/* MPIDR Aff1 and up: the cluster of a CPU (the last cell of reg) */
static uint32_t cpu_cluster(const struct em_model *m, int cpu)
{
	const void *p;
	int len;

	p = fdt_getprop(m->fdt, m->cpu[cpu].node, "reg", &len);
	if (!p || len < 4)
		return 0;
	return fdt32_ld((const fdt32_t *)p + len / 4 - 1) >> 8;
}

static void check_clusters(struct check *c)
{
	const struct em_model *m = c->m;
	char cpus[EM_CPULIST_LEN], path[256];
	int k, cpu, other;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];

		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			if (!em_cpu_test(&pd->cpus, cpu) ||
			    cpu_cluster(m, cpu) == cpu_cluster(m, pd->first_cpu))
				continue;
			em_cpulist(cpus, sizeof(cpus), &pd->cpus);
			report(c, SEV_WARNING,
			       "%s: pd %s: cpus %s span more than one cluster (MPIDR cluster %#x and %#x): one cpufreq policy and one EM for CPUs that usually have separate clocks; fix: one opp-shared OPP table per cluster",
			       m->file, pd->name, cpus,
			       cpu_cluster(m, pd->first_cpu),
			       cpu_cluster(m, cpu));
			break;
		}
	}
	/* a cluster split into several policies: no opp-shared */
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		for (other = 0; other < cpu; other++) {
			if (m->cpu[cpu].pd == m->cpu[other].pd ||
			    cpu_cluster(m, cpu) != cpu_cluster(m, other) ||
			    m->cpu[cpu].opp_table != m->cpu[other].opp_table ||
			    m->cpu[cpu].opp_table < 0)
				continue;
			report(c, SEV_WARNING,
			       "%s: %s: no opp-shared: cpu%d and cpu%d of one cluster use this OPP table but get a cpufreq policy and an EM each, as if they had their own clocks; fix: add opp-shared if the cluster shares its clock",
			       m->file,
			       node_path(m, m->cpu[cpu].opp_table, path,
					 sizeof(path)),
			       other, cpu);
			return;
		}
}

static void check_eas(struct check *c)
{
	const struct em_model *m = c->m;
	uint32_t caps[EM_NR_CPUS];
	int nr_caps = 0, cpu, i, k;
	char list[256] = "";
	int n = 0;

	if (m->error[0] && !m->nr_failed) {
		report(c, SEV_ERROR,
		       "%s: EAS: will not start: without cpufreq-dt policies there is no EM (see above)",
		       m->file);
		return;
	}
	for (k = 0; k < m->nr_pds; k++)
		if (!m->pd[k].nr_states) {
			report(c, SEV_ERROR,
			       "%s: EAS: will not start: pd %s has no EM, and one CPU without an EM stops EAS for all (\"pd_init: no EM found for CPU%d\" with sched_verbose)",
			       m->file, m->pd[k].name, m->pd[k].first_cpu);
			return;
		}
	if (m->smt) {
		report(c, SEV_ERROR,
		       "%s: /cpus/cpu-map: thread nodes: EAS will not start with SMT (\"rd ...: Checking EAS, SMT is not supported\")",
		       m->file);
		return;
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		for (i = 0; i < nr_caps; i++)
			if (caps[i] == m->cpu[cpu].capacity)
				break;
		if (i == nr_caps)
			caps[nr_caps++] = m->cpu[cpu].capacity;
	}
	for (i = 0; i < nr_caps && n < (int)sizeof(list) - 16; i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%u", i ? ", " : "",
			      caps[i]);
	if (i < nr_caps)
		snprintf(list + n, sizeof(list) - n, ", ... (%d in all)", nr_caps);
	if (nr_caps < 2) {
		report(c, SEV_ERROR,
		       "%s: EAS: will not start: every CPU has capacity %u, no asymmetry (\"rd ...: Checking EAS, CPUs do not have asymmetric capacities\" with sched_verbose); fix: capacity-dmips-mhz per core type",
		       m->file, caps[0]);
		return;
	}
	report(c, SEV_INFO,
	       "%s: EAS: can start: %d perf domains, one EM each, capacities %s (asymmetric), at most %u CPUs per perf domain on %s; it also needs at run time the schedutil governor on every policy (exynos_defconfig and multi_v7_defconfig default to ondemand), frequency-invariant load tracking (no CONFIG_BL_SWITCHER) and kernel.sched_energy_aware=1",
	       m->file, m->nr_pds, list, em_max_num_cpus(m),
	       m->arch == EM_ARCH_ARM64 ? "64-bit" : "32-bit");
}

/*
 * Before v5.16 em_create_pd() compared freq / power of neighbouring states,
 * with the power in mW: opp_eff = kHz / mW, prev_opp_eff = ULONG_MAX.
 */
static void check_legacy(struct check *c)
{
	const struct em_model *m = c->m;
	int k, i;

	for (k = 0; k < m->nr_pds; k++) {
		const struct em_pd *pd = &m->pd[k];
		uint32_t prev_eff = UINT32_MAX, prev_khz = 0, prev_mw = 0;
		const struct em_opp **opp = state_opps(pd);

		if (!opp) {
			report(c, SEV_ERROR, "%s: out of memory", m->file);
			return;
		}
		for (i = 0; i < pd->nr_states; i++) {
			uint32_t khz = pd->states[i].frequency, mw, eff;
			const struct em_opp *o = opp[i];
			uint64_t mv;

			if (!o)
				continue;
			if (pd->dt_power) {
				mw = o->u_watt / 1000;
			} else {
				mv = o->u_volt / 1000;
				mw = (uint64_t)pd->coeff * mv * mv *
				     (o->rate / 1000000) / 1000000000;
			}
			if (!mw || mw > LEGACY_MAX_POWER) {
				report(c, SEV_WARNING,
				       "%s: pd %s: legacy: %u mW at %u kHz: kernels before v5.19 (power in mW, 1 to 65535) printed \"EM: invalid power: %u\" and registered no EM",
				       m->file, pd->name, mw, khz, mw);
				break;
			}
			eff = khz / mw;
			if (eff >= prev_eff)
				report(c, SEV_WARNING,
				       "%s: pd %s: legacy: em_perf_state %d >= em_perf_state%d (%u kHz / %u mW = %u >= %u kHz / %u mW = %u): v5.9-v5.15 printed \"cpu %s: EM: hertz/watts ratio non-monotonically decreasing: em_perf_state %d >= em_perf_state%d\" (dev_dbg), v5.0-v5.8 \"pd%d: hertz/watts ratio non-monotonically decreasing: em_cap_state %d >= em_cap_state%d\" (pr_warn)",
				       m->file, pd->name, i, i - 1, khz, mw,
				       eff, prev_khz, prev_mw, prev_eff,
				       pd->name, i, i - 1, pd->first_cpu, i,
				       i - 1);
			prev_eff = eff;
			prev_khz = khz;
			prev_mw = mw;
		}
		free(opp);
	}
}

/**
 * em_check() - report what the kernel does with the EM of a DTB
 * @out:	where the findings go, one a line
 * @m:		the model, as em_model_load() left it (even on failure)
 * @opt:	what to check besides 6.12
 *
 * Return: the number of errors and warnings.
 */
int em_check(FILE *out, const struct em_model *m,
	     const struct em_check_options *opt)
{
	struct check c = { .out = out, .m = m };
	int k, i;

	if (m->arch_guessed)
		report(&c, SEV_INFO,
		       "%s: checked for %s (guessed from the CPUs' compatible; --arch to change)",
		       m->file, m->arch == EM_ARCH_ARM64 ? "arm64" : "arm32");
	for (i = 0; i < m->nr_notes; i++)
		if (!m->cap_fallback[0] || !strstr(m->notes[i], m->cap_fallback))
			report(&c, SEV_INFO, "%s", m->notes[i]);

	if (m->error[0] && !m->nr_failed) {
		/* no policy at all: only the reason */
		report(&c, SEV_ERROR, "%s", m->error);
		check_eas(&c);
		goto out;
	}
	for (k = 0; k < m->nr_pds; k++)
		if (m->pd[k].error[0])
			report(&c, SEV_ERROR, "%s", m->pd[k].error);

	check_capacity(&c);
	check_coefficients(&c);
	check_costs(&c);
	check_frequencies(&c);
	check_states(&c);
	check_clusters(&c);
	if (opt->legacy)
		check_legacy(&c);
	check_eas(&c);
out:
	fprintf(out, "%d error%s, %d warning%s, %d info\n",
		c.count[SEV_ERROR], c.count[SEV_ERROR] == 1 ? "" : "s",
		c.count[SEV_WARNING], c.count[SEV_WARNING] == 1 ? "" : "s",
		c.count[SEV_INFO]);
	return c.count[SEV_ERROR] + c.count[SEV_WARNING];
}
