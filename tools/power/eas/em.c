// SPDX-License-Identifier: GPL-2.0
/*
 * The Energy Model of Linux 6.12 on arm32, computed from a DTB.
 *
 * This follows, step by step and with the same integer types, what the
 * kernel does with the device tree:
 *
 *   arch/arm/kernel/devtree.c      logical CPU numbers, boot CPU first
 *   drivers/cpufreq/cpufreq-dt.c   one policy per opp-shared OPP table
 *   drivers/opp/of.c, core.c       OPPs, P = coeff * mV^2 * MHz / 10^6 uW
 *   arch/arm/kernel/topology.c,
 *   drivers/base/arch_topology.c   CPU capacity, early and final
 *   kernel/power/energy_model.c    performance, cost, inefficient states
 *
 * What the DT alone cannot say (the boot CPU, clock rates at boot, the
 * regulators' voltage ranges) is assumed as documented in em.h.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "em.h"

#define ULONG32_MAX	UINT32_MAX
#define HZ_PER_KHZ	1000U
#define DTB_MAX_SIZE	(64U << 20)

static void em_vmsg(struct em_model *m, char *buf, int node,
		    const char *prop, const char *fmt, va_list ap)
{
	char path[256] = "";
	char text[EM_MSG_LEN];
	int n;

	if (node >= 0 && m->fdt &&
	    fdt_get_path(m->fdt, node, path, sizeof(path)))
		snprintf(path, sizeof(path), "(node at offset %d)", node);
	vsnprintf(text, sizeof(text), fmt, ap);
	n = snprintf(buf, EM_MSG_LEN, "%s", m->file);
	if (node >= 0 && n < EM_MSG_LEN)
		n += snprintf(buf + n, EM_MSG_LEN - n, ": %s", path);
	if (prop && n < EM_MSG_LEN)
		n += snprintf(buf + n, EM_MSG_LEN - n, ": %s", prop);
	if (n < EM_MSG_LEN)
		snprintf(buf + n, EM_MSG_LEN - n, ": %s", text);
}

/* A message about @node's @prop into @buf */
static void __printf(5, 6)
em_vmsg_str(struct em_model *m, char *buf, int node, const char *prop,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	em_vmsg(m, buf, node, prop, fmt, ap);
	va_end(ap);
}

/* Record why there is no EM; the caller returns the -1 */
static int __printf(4, 5)
em_fail(struct em_model *m, int node, const char *prop, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	em_vmsg(m, m->error, node, prop, fmt, ap);
	va_end(ap);
	return -1;
}

/* Record something the kernel does that one may not expect */
static void __printf(4, 5)
em_note(struct em_model *m, int node, const char *prop, const char *fmt, ...)
{
	va_list ap;

	if (m->nr_notes == EM_MAX_NOTES)
		return;
	va_start(ap, fmt);
	em_vmsg(m, m->notes[m->nr_notes++], node, prop, fmt, ap);
	va_end(ap);
}

/* Android's energy model: em_find_android() and em_register_pd() */
static const char * const android_msg[] = {
	"Android's energy model (sched-energy-costs, energy-costs: busy-cost-data, idle-cost-data): mainline ignores it; the EM of Linux 6.12 comes from dynamic-power-coefficient and the OPP tables (opp-microvolt, or opp-microwatt)",
	"; Android's sched-energy-costs and energy-costs do not count: mainline never reads them",
};

static uint32_t em_be32(const void *p)
{
	fdt32_t v;

	memcpy(&v, p, sizeof(v));
	return fdt32_to_cpu(v);
}

static uint64_t em_be64(const void *p)
{
	fdt64_t v;

	memcpy(&v, p, sizeof(v));
	return fdt64_to_cpu(v);
}

static bool em_has_prop(struct em_model *m, int node, const char *name)
{
	return fdt_getprop(m->fdt, node, name, NULL);
}

/* A string property, or NULL if absent or not NUL-terminated */
static const char *em_string(struct em_model *m, int node, const char *name,
			     int *len)
{
	const char *s = fdt_getprop(m->fdt, node, name, len);

	if (!s || *len <= 0 || !memchr(s, '\0', *len))
		return NULL;
	return s;
}

/* of_property_read_u32(), but a cell count other than one is bad input */
static int em_read_u32(struct em_model *m, int node, const char *name,
		       uint32_t *val, bool *present)
{
	const void *p;
	int len;

	p = fdt_getprop(m->fdt, node, name, &len);
	*present = p;
	if (!p)
		return 0;
	if (len != 4)
		return em_fail(m, node, name,
			       "%d bytes, want one cell (4 bytes); fix: %s = <value>",
			       len, name);
	*val = em_be32(p);
	return 0;
}

/* drivers/of/base.c: of_device_is_available() */
static bool em_available(struct em_model *m, int node)
{
	const char *s;
	int len;

	if (!fdt_getprop(m->fdt, node, "status", &len))
		return true;
	s = em_string(m, node, "status", &len);
	return s && (!strcmp(s, "okay") || !strcmp(s, "ok"));
}

/* drivers/of/base.c: __of_device_is_fail() */
static bool em_failed(struct em_model *m, int node)
{
	const char *s;
	int len;

	s = em_string(m, node, "status", &len);
	return s && (!strcmp(s, "fail") || !strncmp(s, "fail-", 5));
}

/* of_get_next_cpu_node(): named "cpu" or of device_type "cpu" */
static bool em_is_cpu_node(struct em_model *m, int node)
{
	const char *name = fdt_get_name(m->fdt, node, NULL);
	const char *type;
	int len;

	if (name && strcspn(name, "@") == 3 && !strncmp(name, "cpu", 3))
		return true;
	type = em_string(m, node, "device_type", &len);
	return type && !strcmp(type, "cpu");
}

/*
 * What a file is, for messages: "a FIFO", "a directory", ... (the DTB
 * reader's and debugfs.c's, which builds on this file).
 */
const char *em_file_type(unsigned int mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a plain file";
}

static int em_check_blob(struct em_model *m, size_t size);

static int em_read_file(struct em_model *m)
{
	size_t size = 0, alloc = 0, n;
	char *buf = NULL, *tmp;
	struct stat st = { 0 };
	FILE *f;
	int err, fd;

	/* a FIFO is read (a pipe), but its open() must not wait for a writer */
	fd = open(m->file, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return em_fail(m, -1, NULL,
			       "cannot open: %s; fix: check the path (the board DTBs are built by 'make dtbs' into $(O)/arch/arm/boot/dts/samsung)",
			       strerror(errno));
	if (fstat(fd, &st) || (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) ||
	    fcntl(fd, F_SETFL, 0)) {
		close(fd);
		return em_fail(m, -1, NULL,
			       "not a regular file (%s); fix: pass a .dtb file",
			       em_file_type(st.st_mode));
	}
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return em_fail(m, -1, NULL, "out of memory");
	}
	do {
		if (size == alloc) {
			alloc = alloc ? alloc * 2 : 65536;
			tmp = realloc(buf, alloc);
			if (!tmp) {
				free(buf);
				fclose(f);
				return em_fail(m, -1, NULL, "out of memory");
			}
			buf = tmp;
		}
		n = fread(buf + size, 1, alloc - size, f);
		size += n;
	} while (n && size <= DTB_MAX_SIZE);
	err = ferror(f) ? errno : 0;
	fclose(f);
	m->fdt = buf;

	if (err)
		return em_fail(m, -1, NULL, "cannot read: %s; fix: pass a .dtb file",
			       strerror(err));
	return em_check_blob(m, size);
}

/*
 * libfdt's fdt_check_full(), which the kernel's copy of libfdt (used for
 * the static guest build) leaves out: every tag, node nesting and property
 * name checked, so that the read-only accessors are safe afterwards.
 */
static int em_fdt_check_full(const void *fdt, size_t bufsize)
{
	int err, depth = 0, offset, nextoffset = 0, len;
	bool expect_end = false;
	uint32_t tag;

	if (bufsize < FDT_V1_SIZE)
		return -FDT_ERR_TRUNCATED;
	err = fdt_check_header(fdt);
	if (err)
		return err;
	if (bufsize < fdt_totalsize(fdt))
		return -FDT_ERR_TRUNCATED;
	for (;;) {
		const struct fdt_property *prop;

		offset = nextoffset;
		tag = fdt_next_tag(fdt, offset, &nextoffset);
		if (nextoffset < 0)
			return nextoffset;
		if (expect_end && tag != FDT_END && tag != FDT_NOP)
			return -FDT_ERR_BADSTRUCTURE;
		switch (tag) {
		case FDT_NOP:
			break;
		case FDT_END:
			return depth ? -FDT_ERR_BADSTRUCTURE : 0;
		case FDT_BEGIN_NODE:
			if (++depth > 64)
				return -FDT_ERR_BADSTRUCTURE;
			break;
		case FDT_END_NODE:
			if (--depth < 0)
				return -FDT_ERR_BADSTRUCTURE;
			if (!depth)
				expect_end = true;
			break;
		case FDT_PROP:
			if (!depth)
				return -FDT_ERR_BADSTRUCTURE;
			prop = fdt_get_property_by_offset(fdt, offset, &len);
			if (!prop)
				return len;
			if (!fdt_get_string(fdt, fdt32_ld(&prop->nameoff), &len))
				return len < 0 ? len : -FDT_ERR_BADSTRUCTURE;
			break;
		default:
			return -FDT_ERR_INTERNAL;
		}
	}
}

/* Is the blob a whole, sane flattened device tree? */
static int em_check_blob(struct em_model *m, size_t size)
{
	const void *buf = m->fdt;
	int err;

	if (size > DTB_MAX_SIZE)
		return em_fail(m, -1, NULL,
			       "larger than %u MiB: not a DTB; fix: pass a .dtb file",
			       DTB_MAX_SIZE >> 20);
	if (size < 4 || fdt_magic(buf) != FDT_MAGIC)
		return em_fail(m, -1, NULL,
			       "not a flattened device tree (no magic 0x%08x); fix: pass a .dtb built by dtc, not a .dts or another file",
			       FDT_MAGIC);
	if (size < FDT_V17_SIZE)
		return em_fail(m, -1, NULL,
			       "truncated: %zu bytes, less than the %u of the header; fix: copy or rebuild the DTB",
			       size, (unsigned int)FDT_V17_SIZE);
	if (fdt_totalsize(buf) > size)
		return em_fail(m, -1, NULL,
			       "truncated: %zu bytes, the header says %u; fix: copy or rebuild the DTB",
			       size, fdt_totalsize(buf));
	/* libfdt reads the blocks as 32-bit words: keep them aligned */
	if (fdt_off_dt_struct(buf) % 4 || fdt_off_mem_rsvmap(buf) % 8)
		return em_fail(m, -1, NULL,
			       "corrupt device tree: misaligned structure block (offset %u) or reserve map (offset %u); fix: rebuild the DTB with dtc",
			       fdt_off_dt_struct(buf), fdt_off_mem_rsvmap(buf));
	err = em_fdt_check_full(buf, size);
	if (err)
		return em_fail(m, -1, NULL,
			       "corrupt device tree: %s; fix: rebuild the DTB with dtc",
			       fdt_strerror(err));
	return 0;
}

/* ARMv8 CPUs with AArch64: an arm64 kernel is the likely one */
static bool em_is_v8_cpu(const char *compatible)
{
	static const char * const v8[] = {
		"arm,cortex-a35", "arm,cortex-a53", "arm,cortex-a55",
		"arm,cortex-a57", "arm,cortex-a65", "arm,cortex-a72",
		"arm,cortex-a73", "arm,cortex-a75", "arm,cortex-a76",
		"arm,cortex-a77", "arm,cortex-a78", "arm,cortex-a510",
		"arm,cortex-a520", "arm,cortex-a710", "arm,cortex-a715",
		"arm,cortex-a720", "arm,cortex-x", "arm,neoverse", "arm,armv8",
		"qcom,kryo", "qcom,oryon", "nvidia,denver", "nvidia,carmel",
		"apple,", "cavium,thunder", "brcm,brahma-b53", "brcm,vulcan",
		"apm,potenza", "fujitsu,a64fx", "phytium,",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v8); i++)
		if (!strncmp(compatible, v8[i], strlen(v8[i])))
			return true;
	return false;
}

static void em_guess_arch(struct em_model *m, const struct em_options *opt)
{
	int cpus, node, len, off;
	const char *list;

	m->arch = opt->arch;
	if (m->arch != EM_ARCH_AUTO)
		return;
	m->arch = EM_ARCH_ARM;
	m->arch_guessed = true;
	cpus = fdt_path_offset(m->fdt, "/cpus");
	if (cpus < 0)
		return;
	fdt_for_each_subnode(node, m->fdt, cpus) {
		list = fdt_getprop(m->fdt, node, "compatible", &len);
		if (!list || len <= 0 || list[len - 1] != '\0')
			continue;
		for (off = 0; off < len; off += strlen(list + off) + 1)
			if (em_is_v8_cpu(list + off)) {
				m->arch = EM_ARCH_ARM64;
				return;
			}
	}
}

/* arch/arm/kernel/devtree.c: arm_dt_init_cpu_maps(), boot CPU first */
static int em_find_cpus(struct em_model *m)
{
	static const char nr_cpus_arm[] = "arm32's NR_CPUS (2 to 32)";
	static const char nr_cpus_arm64[] =
		"arm64's default NR_CPUS (512; more, up to 4096, is not modelled)";
	bool arm64 = m->arch == EM_ARCH_ARM64;
	int max = arm64 ? EM_NR_CPUS_ARM64 : EM_NR_CPUS_ARM;
	const void *reg[EM_NR_CPUS];
	int reglen[EM_NR_CPUS];
	int cpus, node, i;

	cpus = fdt_path_offset(m->fdt, "/cpus");
	if (cpus < 0)
		return em_fail(m, -1, "/cpus",
			       "node missing: the kernel finds no CPU, so no cpufreq and no EM; fix: pass a board DTB with its /cpus node, not an overlay");

	fdt_for_each_subnode(node, m->fdt, cpus) {
		const void *r;
		int len;

		if (em_failed(m, node) || !em_is_cpu_node(m, node))
			continue;
		r = fdt_getprop(m->fdt, node, "reg", &len);
		if (!r || len < 4 || len % 4)
			return em_fail(m, node, "reg",
				       "%s: arm_dt_init_cpu_maps() cannot map the CPUs and keeps its default map; fix: reg = <MPIDR[23:0]>",
				       r ? "not whole cells" : "missing");
		for (i = 0; i < m->nr_cpus; i++)
			if (reglen[i] == len && !memcmp(reg[i], r, len))
				return em_fail(m, node, "reg",
					       "same as cpu%d's: the kernel WARNs \"Duplicate /cpu reg properties in the DT\" and ignores the CPU map; fix: give each cpu node its own MPIDR",
					       i);
		if (m->nr_cpus == max)
			return em_fail(m, node, NULL,
				       "more than %d cpu nodes: more than %s allows; fix: remove cpu nodes%s",
				       max, arm64 ? nr_cpus_arm64 : nr_cpus_arm,
				       arm64 ? "" :
				       ", or pass --arch=arm64 for an arm64 kernel");
		reg[m->nr_cpus] = r;
		reglen[m->nr_cpus] = len;
		m->cpu[m->nr_cpus].node = node;
		m->cpu[m->nr_cpus].pd = -1;
		m->nr_cpus++;
	}
	if (!m->nr_cpus)
		return em_fail(m, cpus, NULL,
			       "no cpu nodes (device_type = \"cpu\"): no cpufreq, no EM; fix: describe the CPUs under /cpus");
	if (!arm64 && m->nr_cpus > EM_DEFCONFIG_NR_CPUS)
		em_note(m, cpus, NULL,
			"%d cpu nodes: a kernel with exynos_defconfig's NR_CPUS=%d ignores the ones after cpu%d",
			m->nr_cpus, EM_DEFCONFIG_NR_CPUS,
			EM_DEFCONFIG_NR_CPUS - 1);
	return 0;
}

/* of_parse_phandle(cpu, "operating-points-v2", 0) for every CPU */
static int em_find_opp_tables(struct em_model *m)
{
	int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		int node = m->cpu[cpu].node, len, table;
		const void *p;
		uint32_t ph;

		p = fdt_getprop(m->fdt, node, "operating-points-v2", &len);
		if (!p && em_has_prop(m, node, "operating-points")) {
			m->cpu[cpu].v1 = true;
			m->cpu[cpu].opp_table = node;
			continue;
		}
		if (!p) {
			/* may still be covered by another CPU's policy */
			m->cpu[cpu].opp_table = -1;
			continue;
		}
		if (len < 4 || len % 4)
			return em_fail(m, node, "operating-points-v2",
				       "%d bytes, want a phandle (one cell, 4 bytes): cpufreq-dt finds no OPP table and fails to probe (no EM); fix: operating-points-v2 = <&opp_table>",
				       len);
		ph = em_be32(p);
		table = fdt_node_offset_by_phandle(m->fdt, ph);
		if (table < 0)
			return em_fail(m, node, "operating-points-v2",
				       "phandle 0x%x points to no node: cpufreq-dt finds no OPP table for cpu%d and fails to probe (no EM); fix: point it at an existing OPP table, operating-points-v2 = <&label>",
				       ph, cpu);
		m->cpu[cpu].opp_table = table;
	}
	return 0;
}

/*
 * dev_pm_opp_of_get_sharing_cpus() met a CPU without operating-points-v2:
 * -ENOENT, and cpufreq-dt falls back to one policy for all CPUs.
 */
static void em_make_pd_all(struct em_model *m, struct em_pd *pd, int cpu,
			   int other)
{
	int i;

	for (i = 0; i < m->nr_cpus; i++) {
		if (m->cpu[i].pd >= 0 && i != cpu)
			continue;
		em_cpu_set(&pd->cpus, i);
		m->cpu[i].pd = m->nr_pds;
	}
	snprintf(pd->why_all, sizeof(pd->why_all),
		 " (cpufreq-dt put every CPU in this policy: %s has no operating-points-v2 while cpu%d's table is opp-shared, \"Couldn't find opp node\"; fix: give every cpu node operating-points-v2)",
		 fdt_get_name(m->fdt, m->cpu[other].node, NULL), cpu);
	em_note(m, m->cpu[other].node, "operating-points-v2",
		"missing while cpu%d's table is opp-shared: \"Couldn't find opp node\", and cpufreq-dt falls back to one policy for all CPUs with cpu%d's OPPs",
		cpu, cpu);
}

/*
 * cpufreq-dt: dt_cpufreq_early_init() for each CPU in turn; an opp-shared
 * table takes every CPU that points at it (dev_pm_opp_of_get_sharing_cpus).
 */
static int em_make_pds(struct em_model *m)
{
	int cpu, other;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct em_pd *pd = &m->pd[m->nr_pds];
		int table = m->cpu[cpu].opp_table;

		if (m->cpu[cpu].pd >= 0)
			continue;
		if (table < 0)
			return em_fail(m, m->cpu[cpu].node, "operating-points-v2",
				       "missing: cpufreq-dt finds no OPP for cpu%d (\"cpu cpu%d: OPP table can't be empty\") and fails to probe: no cpufreq, no EM; fix: add operating-points-v2 = <&opp_table> to every cpu node",
				       cpu, cpu);
		snprintf(pd->name, sizeof(pd->name), "cpu%d", cpu);
		pd->first_cpu = cpu;
		memset(&pd->cpus, 0, sizeof(pd->cpus));
		em_cpu_set(&pd->cpus, cpu);
		m->cpu[cpu].pd = m->nr_pds;
		if (m->cpu[cpu].v1) {
			/* no OPP sharing information: all CPUs share */
			for (other = 0; other < m->nr_cpus; other++) {
				if (m->cpu[other].pd >= 0)
					continue;
				em_cpu_set(&pd->cpus, other);
				m->cpu[other].pd = m->nr_pds;
			}
			if (em_cpus_weight(&pd->cpus) > 1)
				em_note(m, m->cpu[cpu].node, "operating-points",
					"legacy v1 table: without OPP sharing information cpufreq-dt puts every CPU in the policy of cpu%d and uses cpu%d's table for all",
					cpu, cpu);
		} else if (em_has_prop(m, table, "opp-shared")) {
			for (other = 0; other < m->nr_cpus; other++) {
				if (other == cpu)
					continue;
				if (m->cpu[other].opp_table < 0 ||
				    m->cpu[other].v1) {
					em_make_pd_all(m, pd, cpu, other);
					break;
				}
				if (m->cpu[other].opp_table != table)
					continue;
				em_cpu_set(&pd->cpus, other);
				m->cpu[other].pd = m->nr_pds;
			}
		}
		m->nr_pds++;
	}
	return 0;
}

/*
 * drivers/opp/of.c: _parse_named_prop(), "opp-<type>" for one supply.
 * Return 1 and the first cell in @first if present, 0 if absent, -1 on
 * a count the OPP core refuses.
 */
static int em_opp_supply_prop(struct em_model *m, struct em_pd *pd, int node,
			      const char *type, bool triplet, int *regulators,
			      uint32_t *first)
{
	const void *p;
	char name[32];
	int len, count;

	snprintf(name, sizeof(name), "opp-%s", type);
	p = fdt_getprop(m->fdt, node, name, &len);
	if (!p)
		return 0;
	if (len % 4)
		return em_fail(m, node, name,
			       "%d bytes, not whole cells: \"cpu %s: _parse_named_prop: Invalid %s property (-22)\", cpufreq-dt fails to probe (no EM); fix: %s = <value>",
			       len, pd->name, name, name);
	count = len / 4;
	if (*regulators == -1)
		*regulators = 1;
	if (count != *regulators &&
	    (!triplet || count != *regulators * 3)) {
		const char *why =
			"but the first OPP of the table has none: the OPP core counts 0 supplies";

		if (*regulators)
			why = triplet ? "want 1 (target) or 3 (target min max)" : "want 1";

		return em_fail(m, node, name,
			       "%d cells, %s: \"cpu %s: _parse_named_prop: Invalid number of elements in %s property (%d) with supplies (%d)\", cpufreq-dt fails to probe (no EM); fix: %s on every OPP",
			       count, why, pd->name, type, count, *regulators,
			       triplet ? "opp-microvolt = <uV> or <uV min max>" :
					 "one cell");
	}
	*first = count ? em_be32(p) : 0;
	return 1;
}

static int em_opp_insert(struct em_model *m, struct em_pd *pd,
			 const struct em_opp *opp, const char *prop);
static int em_opps_done(struct em_model *m, struct em_pd *pd);
static int em_parse_opps_v1(struct em_model *m, struct em_pd *pd);

/* drivers/opp/of.c: _of_add_opp_table_v2() for the table of one policy */
static int em_parse_opps(struct em_model *m, struct em_pd *pd)
{
	int cpu = pd->first_cpu, cpu_node = m->cpu[cpu].node;
	int table = m->cpu[cpu].opp_table, node, nr = 0;
	int regulators = -1;

	if (m->cpu[cpu].v1)
		return em_parse_opps_v1(m, pd);

	/* cpufreq-dt: find_supply_name() on the policy CPU */
	if ((cpu == 0 && em_has_prop(m, cpu_node, "cpu0-supply")) ||
	    em_has_prop(m, cpu_node, "cpu-supply"))
		regulators = 1;

	fdt_for_each_subnode(node, m->fdt, table)
		nr++;
	pd->opps = calloc(nr ? nr : 1, sizeof(*pd->opps));
	if (!pd->opps)
		return em_fail(m, -1, NULL, "out of memory");

	fdt_for_each_subnode(node, m->fdt, table) {
		uint32_t uv = 0, ua = 0, uw = 0;
		int has_uv, len;
		struct em_opp opp;
		const void *p;
		uint64_t hz;

		if (!em_available(m, node))
			continue;

		p = fdt_getprop(m->fdt, node, "opp-hz", &len);
		if (!p)
			return em_fail(m, node, "opp-hz",
				       "missing: \"cpu %s: _opp_add_static_v2: opp key field not found\", cpufreq-dt fails to probe (no EM); fix: opp-hz = /bits/ 64 <Hz>",
				       pd->name);
		if (len / 8 != 1)
			return em_fail(m, node, "opp-hz",
				       "%d bytes, want one u64 (two cells): \"_read_rate: Count mismatch between opp-hz and clk_count (%d 1)\", cpufreq-dt fails to probe (no EM); fix: opp-hz = /bits/ 64 <Hz>",
				       len, len / 8);
		if (len % 8)
			em_note(m, node, "opp-hz",
				"%d bytes: the OPP core reads the first 8 and ignores the rest",
				len);
		hz = em_be64(p);
		if (hz > ULONG32_MAX)
			return em_fail(m, node, "opp-hz",
				       "%llu Hz does not fit arm32's unsigned long: the OPP core WARNs and truncates it; fix: at most 4294967295 Hz",
				       (unsigned long long)hz);

		/* _opp_is_supported(): cpufreq-dt sets no supported_hw */
		if (em_has_prop(m, node, "opp-supported-hw")) {
			em_note(m, node, "opp-supported-hw",
				"present but cpufreq-dt sets no supported hardware: the OPP core leaves this OPP out");
			continue;
		}

		/* opp_parse_supplies() */
		has_uv = em_opp_supply_prop(m, pd, node, "microvolt", true,
					    &regulators, &uv);
		if (has_uv < 0)
			return -1;
		if (!has_uv && !pd->nr_opps && regulators > 0)
			return em_fail(m, node, "opp-microvolt",
				       "missing on the first OPP while the table manages a regulator (cpu-supply): \"cpu %s: opp_parse_microvolt: opp-microvolt missing although OPP managing regulators\", cpufreq-dt fails to probe (no EM); fix: add opp-microvolt = <uV> to every OPP",
				       pd->name);
		if (em_opp_supply_prop(m, pd, node, "microamp", false,
				       &regulators, &ua) < 0 ||
		    em_opp_supply_prop(m, pd, node, "microwatt", false,
				       &regulators, &uw) < 0)
			return -1;
		if (regulators == -1)
			regulators = 0;

		opp.rate = hz;
		opp.u_volt = regulators > 0 ? uv : 0;
		opp.u_watt = regulators > 0 ? uw : 0;
		opp.turbo = em_has_prop(m, node, "turbo-mode");
		opp.node = node;

		if (em_opp_insert(m, pd, &opp, "opp-hz"))
			return -1;
	}
	return em_opps_done(m, pd);
}

/* drivers/opp/of.c: _of_add_opp_table_v1(), <kHz uV> pairs in the cpu node */
static int em_parse_opps_v1(struct em_model *m, struct em_pd *pd)
{
	int node = m->cpu[pd->first_cpu].node, len, i;
	const uint8_t *p;

	p = fdt_getprop(m->fdt, node, "operating-points", &len);
	if (!p || len <= 0 || len % 8)
		return em_fail(m, node, "operating-points",
			       "%d bytes, not <kHz uV> pairs: \"cpu %s: _of_add_opp_table_v1: Invalid OPP table\", cpufreq-dt fails to probe (no EM); fix: operating-points = <kHz uV>, ...",
			       p ? len : 0, pd->name);
	pd->opps = calloc(len / 8, sizeof(*pd->opps));
	if (!pd->opps)
		return em_fail(m, -1, NULL, "out of memory");
	for (i = 0; i < len / 8; i++) {
		struct em_opp opp = { };

		/* (unsigned long)kHz * 1000: wraps at 4294967 kHz on arm32 */
		opp.rate = em_be32(p + 8 * i) * HZ_PER_KHZ;
		if (m->arch == EM_ARCH_ARM64 &&
		    (uint64_t)em_be32(p + 8 * i) * HZ_PER_KHZ > ULONG32_MAX)
			return em_fail(m, node, "operating-points",
				       "%u kHz: eas-em keeps rates in 32 bits; fix: at most 4294967 kHz",
				       em_be32(p + 8 * i));
		opp.u_volt = em_be32(p + 8 * i + 4);
		opp.node = node;
		if (em_opp_insert(m, pd, &opp, "operating-points"))
			return -1;
	}
	return em_opps_done(m, pd);
}

/*
 * _opp_add(): keep the list sorted, drop exact duplicates. The place is
 * found by binary search; OPPs listed in rising order (as DTs list them)
 * are appended, so a table of n is O(n log n).
 */
static int em_opp_insert(struct em_model *m, struct em_pd *pd,
			 const struct em_opp *opp, const char *prop)
{
	int i = 0, hi = pd->nr_opps, mid;

	/* the first OPP at or above opp->rate */
	while (i < hi) {
		mid = i + (hi - i) / 2;
		if (pd->opps[mid].rate < opp->rate)
			i = mid + 1;
		else
			hi = mid;
	}
	if (i < pd->nr_opps && pd->opps[i].rate == opp->rate) {
		if (pd->opps[i].u_volt != opp->u_volt)
			return em_fail(m, opp->node, prop,
				       "%u Hz twice with different voltages: \"cpu %s: _opp_is_duplicate: duplicate OPPs detected\" (-EEXIST), cpufreq-dt fails to probe (no EM); fix: remove one of the two OPPs",
				       opp->rate, pd->name);
		em_note(m, opp->node, prop,
			"%u Hz twice: the OPP core warns \"duplicate OPPs detected\" and keeps the first",
			opp->rate);
		return 0;
	}
	memmove(&pd->opps[i + 1], &pd->opps[i],
		(pd->nr_opps - i) * sizeof(*pd->opps));
	pd->opps[i] = *opp;
	pd->nr_opps++;
	return 0;
}

static int em_opps_done(struct em_model *m, struct em_pd *pd)
{
	int table = m->cpu[pd->first_cpu].opp_table, i;

	if (!pd->nr_opps)
		return em_fail(m, table, NULL,
			       "no usable OPP: \"cpu %s: _of_add_opp_table_v2: no supported OPPs\", cpufreq-dt fails to probe (no EM); fix: add enabled opp nodes with opp-hz",
			       pd->name);

	/* cpufreq_frequency_table_cpuinfo(): boost (turbo) OPPs left out */
	for (i = 0; i < pd->nr_opps; i++)
		if (!pd->opps[i].turbo && pd->opps[i].rate / HZ_PER_KHZ > pd->max_freq)
			pd->max_freq = pd->opps[i].rate / HZ_PER_KHZ;
	if (!pd->max_freq)
		return em_fail(m, table, NULL,
			       "every OPP is turbo-mode: the cpufreq policy of %s has no frequency without boost and fails (no EM); fix: drop turbo-mode from the normal OPPs",
			       pd->name);
	if (pd->max_freq != pd->opps[pd->nr_opps - 1].rate / HZ_PER_KHZ)
		em_note(m, table, NULL,
			"turbo-mode OPPs: cpuinfo.max_freq of %s is %u kHz (boost off), its capacity is scaled to that, and the EM still has the turbo OPPs",
			pd->name, pd->max_freq);
	return 0;
}

/* drivers/base/arch_topology.c: topology_normalize_cpu_scale() */
static void em_normalize(struct em_model *m, const uint32_t *raw,
			 const uint32_t *fref, uint32_t *cap)
{
	uint64_t scale = 1, c;
	int cpu;

	/* u32 raw_capacity times unsigned long: a 32-bit product on arm32 */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		c = (uint32_t)(raw[cpu] * fref[cpu]);
		if (c > scale)
			scale = c;
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		c = (uint32_t)(raw[cpu] * fref[cpu]);
		cap[cpu] = (uint32_t)((c << SCHED_CAPACITY_SHIFT) / scale);
	}
}

/* arch/arm/kernel/topology.c: table_efficiency[] */
static uint32_t em_efficiency(struct em_model *m, int node)
{
	static const struct {
		const char *compatible;
		uint32_t efficiency;
	} table[] = {
		{ "arm,cortex-a15", 3891 },
		{ "arm,cortex-a7", 2048 },
	};
	const char *list;
	unsigned int i;
	int len, off;

	list = fdt_getprop(m->fdt, node, "compatible", &len);
	if (!list || len <= 0 || list[len - 1] != '\0')
		return 0;
	/* of_device_is_compatible(): any entry, case-insensitively */
	for (i = 0; i < ARRAY_SIZE(table); i++)
		for (off = 0; off < len; off += strlen(list + off) + 1)
			if (!strcasecmp(list + off, table[i].compatible))
				return table[i].efficiency;
	return 0;
}

static uint32_t em_boot_khz(struct em_model *m, const struct em_options *opt,
			    int cpu)
{
	const struct em_pd *pd = &m->pd[m->cpu[cpu].pd];
	int i;

	if (opt->boot_none)
		return 1;
	for (i = 0; i < opt->nr_boot_rates; i++)
		if (em_cpu_test(&pd->cpus, opt->boot_rates[i].cpu))
			return opt->boot_rates[i].khz;
	return pd->opps[pd->nr_opps - 1].rate / HZ_PER_KHZ;
}

static void em_capacity_fallback_note(struct em_model *m, int first_missing,
				      const uint32_t *cap)
{
	char caps[EM_MSG_LEN] = "", list[EM_CPULIST_LEN];
	int k, n = 0;

	for (k = 0; k < m->nr_pds && n < (int)sizeof(caps); k++) {
		em_cpulist(list, sizeof(list), &m->pd[k].cpus);
		n += snprintf(caps + n, sizeof(caps) - n, "%scpus %s: %u",
			      k ? ", " : "", list, cap[m->pd[k].first_cpu]);
	}
	snprintf(m->cap_fallback, sizeof(m->cap_fallback),
		 "%s; arm32 then takes capacities from its table_efficiency (cortex-a15 3891, cortex-a7 2048 per 2^20 Hz of clock-frequency, the largest scaled to 1024; 1024 for other CPUs): %s",
		 first_missing ?
		 "\"cpu_capacity: partial information: fallback to 1024 for all CPUs\"" :
		 "on the boot CPU, so the kernel ignores capacity-dmips-mhz on all CPUs, silently",
		 caps);
	em_note(m, m->cpu[first_missing].node, "capacity-dmips-mhz",
		"missing: %s", m->cap_fallback);
}

static int em_cpu_of_node(struct em_model *m, int node)
{
	int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (m->cpu[cpu].node == node)
			return cpu;
	return -1;
}

/* get_cpu_for_node(): the "cpu" phandle of a core or thread node */
static void em_cpumap_leaf(struct em_model *m, int leaf, int *order, int *n)
{
	const void *p;
	int len, cpu, i;

	p = fdt_getprop(m->fdt, leaf, "cpu", &len);
	if (!p || len != 4)
		return;
	cpu = em_cpu_of_node(m, fdt_node_offset_by_phandle(m->fdt,
							   em_be32(p)));
	if (cpu < 0) {
		em_note(m, leaf, "cpu",
			"points to no CPU node: the kernel says \"Can't get CPU for leaf core\" and drops the cpu-map");
		return;
	}
	for (i = 0; i < *n; i++)
		if (order[i] == cpu)
			return;
	order[(*n)++] = cpu;
}

/* drivers/base/arch_topology.c: parse_cluster() and parse_core() */
static void em_cpumap_cluster(struct em_model *m, int cluster, int depth,
			      int *order, int *n)
{
	char name[24];
	int i, c, t, threads;

	if (depth > 8)
		return;
	for (i = 0; ; i++) {
		snprintf(name, sizeof(name), "cluster%d", i);
		c = fdt_subnode_offset(m->fdt, cluster, name);
		if (c < 0)
			break;
		em_cpumap_cluster(m, c, depth + 1, order, n);
	}
	for (i = 0; ; i++) {
		snprintf(name, sizeof(name), "core%d", i);
		c = fdt_subnode_offset(m->fdt, cluster, name);
		if (c < 0)
			break;
		for (threads = 0; ; threads++) {
			snprintf(name, sizeof(name), "thread%d", threads);
			t = fdt_subnode_offset(m->fdt, c, name);
			if (t < 0)
				break;
			em_cpumap_leaf(m, t, order, n);
		}
		if (threads)
			m->smt = true;
		else
			em_cpumap_leaf(m, c, order, n);
	}
}

/* drivers/base/arch_topology.c: parse_socket() on /cpus/cpu-map */
static int em_cpumap_order(struct em_model *m, int *order)
{
	int cpus, map, s, i, n = 0;
	char name[24];

	cpus = fdt_path_offset(m->fdt, "/cpus");
	map = cpus < 0 ? cpus : fdt_subnode_offset(m->fdt, cpus, "cpu-map");
	if (map < 0)
		return -1;
	for (i = 0; ; i++) {
		snprintf(name, sizeof(name), "socket%d", i);
		s = fdt_subnode_offset(m->fdt, map, name);
		if (s < 0)
			break;
		em_cpumap_cluster(m, s, 0, order, &n);
	}
	if (!i)
		em_cpumap_cluster(m, map, 0, order, &n);
	return n;
}

/*
 * arm64: drivers/base/arch_topology.c parse_dt_topology() reads
 * capacity-dmips-mhz through cpu-map only, in its order, with 64-bit
 * arithmetic; a CPU without it means 1024 for all.
 */
static int em_capacity_arm64(struct em_model *m, const struct em_options *opt)
{
	uint64_t raw[EM_NR_CPUS] = { 0 }, fref[EM_NR_CPUS], c, scale = 1;
	int order[EM_NR_CPUS], n, i, cpu, pass;
	bool present;
	uint32_t val;

	n = em_cpumap_order(m, order);
	if (n < 0) {
		snprintf(m->cap_fallback, sizeof(m->cap_fallback),
			 "no /cpus/cpu-map: arm64 reads capacity-dmips-mhz only through cpu-map, so every CPU keeps 1024, silently");
		goto all_1024;
	}
	for (i = 0; i < n; i++) {
		cpu = order[i];
		if (em_read_u32(m, m->cpu[cpu].node, "capacity-dmips-mhz",
				&val, &present))
			return -1;
		if (!present) {
			m->cap_first_missing = cpu;
			if (i)
				snprintf(m->cap_fallback, sizeof(m->cap_fallback),
					 "\"cpu_capacity: missing %s raw capacity\", then \"cpu_capacity: partial information: fallback to 1024 for all CPUs\"",
					 fdt_get_name(m->fdt, m->cpu[cpu].node, NULL));
			else
				snprintf(m->cap_fallback, sizeof(m->cap_fallback),
					 "missing on %s, the first CPU of cpu-map, so the kernel ignores capacity-dmips-mhz on all CPUs and keeps 1024 for all, silently",
					 fdt_get_name(m->fdt, m->cpu[cpu].node, NULL));
			goto all_1024;
		}
		m->cpu[cpu].raw = val;
		m->cpu[cpu].has_raw = true;
		raw[cpu] = val;
	}
	if (!n) {
		snprintf(m->cap_fallback, sizeof(m->cap_fallback),
			 "cpu-map names no CPU: every CPU keeps 1024");
		goto all_1024;
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (!m->cpu[cpu].has_raw)
			em_note(m, m->cpu[cpu].node, NULL,
				"not in cpu-map: raw capacity 0, so cpu_scale 0 (and the kernel drops the topology)");
		fref[cpu] = m->cpu[cpu].has_raw &&
			    em_has_prop(m, m->cpu[cpu].node, "clocks") ?
			    em_boot_khz(m, opt, cpu) : 1;
		m->cpu[cpu].boot_fref = fref[cpu];
	}
	m->capacity_from_dt = true;
	for (pass = 0; pass < 2; pass++) {
		scale = 1;
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			c = raw[cpu] * fref[cpu];
			if (c > scale)
				scale = c;
		}
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			c = ((raw[cpu] * fref[cpu]) << SCHED_CAPACITY_SHIFT) / scale;
			if (pass)
				m->cpu[cpu].capacity = c;
			else
				m->cpu[cpu].early_capacity = c;
		}
		/* init_cpu_capacity_callback(): cpuinfo.max_freq */
		for (cpu = 0; cpu < m->nr_cpus; cpu++)
			fref[cpu] = m->pd[m->cpu[cpu].pd].max_freq;
	}
	return 0;

all_1024:
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		m->cpu[cpu].early_capacity = SCHED_CAPACITY_SCALE;
		m->cpu[cpu].capacity = SCHED_CAPACITY_SCALE;
	}
	em_note(m, -1, NULL, "capacity-dmips-mhz: %s", m->cap_fallback);
	return 0;
}

/*
 * arm32's raw_capacity * capacity_freq_ref is an unsigned long: past 32
 * bits it wraps and normalizes to wrong capacities, silently. The kernel
 * goes on (em.c does as it does); this says why in m->cap_wrap.
 */
static void em_capacity_wrap(struct em_model *m, const uint32_t *fmax)
{
	char caps[EM_MSG_LEN] = "", list[EM_CPULIST_LEN];
	int cpu, k, n = 0;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct em_cpu *p = &m->cpu[cpu];

		if ((uint64_t)p->raw * fmax[cpu] <= UINT32_MAX &&
		    (uint64_t)p->raw * p->boot_fref <= UINT32_MAX)
			continue;
		for (k = 0; k < m->nr_pds && n < (int)sizeof(caps); k++) {
			em_cpulist(list, sizeof(list), &m->pd[k].cpus);
			n += snprintf(caps + n, sizeof(caps) - n, "%scpus %s: %u",
				      k ? ", " : "", list,
				      m->cpu[m->pd[k].first_cpu].capacity);
		}
		em_vmsg_str(m, m->cap_wrap, p->node, "capacity-dmips-mhz",
			    "%u * %u kHz does not fit 32 bits: arm32 computes raw_capacity * capacity_freq_ref in an unsigned long, it wraps, and the kernel's capacities come out wrong (%s); fix: keep capacity-dmips-mhz at most 1024",
			    p->raw, fmax[cpu] > p->boot_fref ? fmax[cpu] :
			    p->boot_fref, caps);
		return;
	}
}

/*
 * arch/arm/kernel/topology.c: parse_dt_topology() and update_cpu_capacity()
 * give the early capacities; drivers/base/arch_topology.c:
 * init_cpu_capacity_callback() normalizes them again with each policy's
 * cpuinfo.max_freq once every CPU has a policy.
 */
static int em_capacity(struct em_model *m, const struct em_options *opt)
{
	uint32_t raw[EM_NR_CPUS] = { 0 }, eff_cap[EM_NR_CPUS] = { 0 };
	uint32_t fref[EM_NR_CPUS], early[EM_NR_CPUS], final[EM_NR_CPUS];
	uint32_t min_cap = ULONG32_MAX, max_cap = 0, middle;
	bool parsing_failed = false, have_raw = false, from_dt = true;
	int cpu, i, first_missing = -1;

	for (i = 0; i < opt->nr_boot_rates; i++)
		if (opt->boot_rates[i].cpu >= m->nr_cpus)
			return em_fail(m, -1, NULL,
				       "--boot-freq names cpu%d, but the DT has cpu0-cpu%d",
				       opt->boot_rates[i].cpu, m->nr_cpus - 1);
	/* one clock a perf domain: two rates for it, only the first would count */
	for (i = 0; i < opt->nr_boot_rates; i++) {
		const struct em_boot_rate *a = &opt->boot_rates[i], *b;
		int j;

		for (j = i + 1; j < opt->nr_boot_rates; j++) {
			b = &opt->boot_rates[j];
			if (m->cpu[a->cpu].pd == m->cpu[b->cpu].pd)
				return em_fail(m, -1, NULL,
					       "--boot-freq gives cpu%d and cpu%d, of one perf domain (%s: one clock); fix: give one CPU of it",
					       a->cpu, b->cpu,
					       m->pd[m->cpu[a->cpu].pd].name);
		}
	}
	if (m->arch == EM_ARCH_ARM64)
		return em_capacity_arm64(m, opt);

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		int node = m->cpu[cpu].node, len;
		const void *rate;
		uint32_t eff, val;
		bool present;

		if (!parsing_failed) {
			if (em_read_u32(m, node, "capacity-dmips-mhz", &val,
					&present))
				return -1;
			if (present) {
				raw[cpu] = val;
				m->cpu[cpu].raw = val;
				m->cpu[cpu].has_raw = true;
				have_raw = true;
				/* of_clk_get(): the rate of the clock now */
				fref[cpu] = em_has_prop(m, node, "clocks") ?
					    em_boot_khz(m, opt, cpu) : 1;
				continue;
			}
			first_missing = cpu;
			m->cap_first_missing = cpu;
			parsing_failed = true;
			have_raw = false;
		}
		from_dt = false;

		eff = em_efficiency(m, node);
		if (!eff)
			continue;
		rate = fdt_getprop(m->fdt, node, "clock-frequency", &len);
		if (!rate || len != 4) {
			em_note(m, node, "clock-frequency",
				"missing or not one cell: \"%s missing clock-frequency property\", capacity stays 1024",
				fdt_get_name(m->fdt, node, NULL));
			continue;
		}
		eff_cap[cpu] = (em_be32(rate) >> 20) * eff;
		if (eff_cap[cpu] < min_cap)
			min_cap = eff_cap[cpu];
		if (eff_cap[cpu] > max_cap)
			max_cap = eff_cap[cpu];
	}
	m->capacity_from_dt = from_dt && have_raw;

	if (m->capacity_from_dt) {
		em_normalize(m, raw, fref, early);
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			m->cpu[cpu].boot_fref = fref[cpu];
			fref[cpu] = m->pd[m->cpu[cpu].pd].max_freq;
		}
		em_normalize(m, raw, fref, final);
	} else {
		/*
		 * The series (ARM: topology: scale the table_efficiency
		 * capacities to 1024): the largest product gets 1024.
		 * Linux 6.12 as released scales around a middle CPU, in
		 * 32-bit arithmetic, as the kernel's unsigned longs.
		 */
		if (4 * max_cap < 3 * (max_cap + min_cap))
			middle = (min_cap + max_cap) >> (SCHED_CAPACITY_SHIFT + 1);
		else
			middle = ((max_cap / 3) >> (SCHED_CAPACITY_SHIFT - 1)) + 1;
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			if (eff_cap[cpu] && max_cap)
				early[cpu] = ((uint64_t)eff_cap[cpu] <<
					      SCHED_CAPACITY_SHIFT) / max_cap;
			else
				early[cpu] = SCHED_CAPACITY_SCALE;
			final[cpu] = early[cpu];
			m->cpu[cpu].upstream_capacity =
				eff_cap[cpu] && middle ? eff_cap[cpu] / middle :
							 SCHED_CAPACITY_SCALE;
		}
		em_capacity_fallback_note(m, first_missing, final);
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		m->cpu[cpu].early_capacity = early[cpu];
		m->cpu[cpu].capacity = final[cpu];
	}
	if (m->capacity_from_dt)
		em_capacity_wrap(m, fref);
	return 0;
}

/*
 * kernel/power/energy_model.c: em_create_perf_table(), with the callback
 * dev_pm_opp_calc_power() or _get_dt_power() of drivers/opp/of.c.
 */
static int em_create_perf_table(struct em_model *m, struct em_pd *pd,
				bool dt_power, uint32_t coeff)
{
	uint32_t freq = 0, prev_freq = 0;
	int i, j;

	pd->nr_states = pd->nr_opps;
	pd->states = calloc(pd->nr_states, sizeof(*pd->states));
	if (!pd->states)
		return em_fail(m, -1, NULL, "out of memory");

	/* j only rises as freq does: O(n) over the states */
	for (i = 0, j = 0; i < pd->nr_states; i++, freq++) {
		uint32_t hz = freq * HZ_PER_KHZ, power, mv;
		const struct em_opp *opp;

		/* dev_pm_opp_find_freq_ceil() */
		for (; j < pd->nr_opps; j++)
			if (pd->opps[j].rate >= hz)
				break;
		if (j == pd->nr_opps)
			return em_fail(m, m->cpu[pd->first_cpu].opp_table, NULL,
				       "no OPP at or above %u Hz for state %d (two OPPs less than 1 kHz apart?): \"cpu %s: EM: invalid perf. state: -22\", no EM for pd %s; fix: space OPPs at least 1 kHz apart",
				       hz, i, pd->name, pd->name);
		opp = &pd->opps[j];

		if (dt_power) {
			power = opp->u_watt;
			if (!power)
				return em_fail(m, opp->node, "opp-microwatt",
					       "missing or 0 while the lowest OPP has one: \"cpu %s: EM: invalid perf. state: -22\", no EM for pd %s; fix: give every OPP of the table opp-microwatt, or none",
					       pd->name, pd->name);
		} else {
			mv = opp->u_volt / 1000;
			if (!mv)
				return em_fail(m, opp->node, "opp-microvolt",
					       "missing (or under 1 mV), so power = coeff * V^2 * f cannot be computed: \"cpu %s: EM: invalid perf. state: -22\", no EM for pd %s; fix: add opp-microvolt = <uV> to every OPP",
					       pd->name, pd->name);
			power = (uint32_t)((uint64_t)coeff * mv * mv *
					   (opp->rate / 1000000) / 1000000);
		}
		hz = opp->rate;
		freq = hz / HZ_PER_KHZ;

		if (freq <= prev_freq)
			return em_fail(m, opp->node, "opp-hz",
				       "\"cpu %s: EM: non-increasing freq: %u\", no EM for pd %s; fix: OPPs of at least 1 kHz",
				       pd->name, freq, pd->name);
		if (!power || power > EM_MAX_POWER)
			return em_fail(m, opp->node, NULL,
				       "power %u uW at %u kHz: \"cpu %s: EM: invalid power: %u\" (it must be 1 to %u uW), no EM for pd %s; fix: check dynamic-power-coefficient and opp-microvolt (uW = coeff * mV^2 * MHz / 10^6)",
				       power, freq, pd->name, power, EM_MAX_POWER,
				       pd->name);
		pd->states[i].power = power;
		pd->states[i].frequency = freq;
		prev_freq = freq;
	}
	return 0;
}

/* kernel/power/energy_model.c: em_init_performance() */
static void em_init_performance(struct em_pd *pd, uint32_t max_cap)
{
	uint64_t fmax = pd->states[pd->nr_states - 1].frequency;
	int i;

	for (i = 0; i < pd->nr_states; i++)
		pd->states[i].performance =
			(uint32_t)((uint64_t)max_cap * pd->states[i].frequency / fmax);
}

/*
 * kernel/power/energy_model.c: em_compute_costs(). A state once marked
 * inefficient stays so: a later update only adds marks.
 */
static bool em_compute_costs(struct em_model *m, struct em_pd *pd)
{
	uint32_t prev_cost = ULONG32_MAX;
	bool inefficient = false;
	int i;

	for (i = pd->nr_states - 1; i >= 0; i--) {
		struct em_state *ps = &pd->states[i];
		uint32_t power_res = ps->power * 10;

		if (ps->performance) {
			ps->cost = power_res / ps->performance;
		} else {
			/* arm32 __aeabi_uidiv: __div0() complains, returns 0 */
			ps->cost = 0;
			em_note(m, m->cpu[pd->first_cpu].node, NULL,
				"pd %s: performance 0 at %u kHz: the cost divides by zero, the kernel prints \"Division by zero in kernel.\" and takes 0; keep capacity * fmin / fmax >= 1",
				pd->name, ps->frequency);
		}
		if (ps->cost >= prev_cost) {
			ps->flags = EM_PERF_STATE_INEFFICIENT;
			inefficient = true;
		} else {
			prev_cost = ps->cost;
		}
	}
	return inefficient;
}

/*
 * drivers/opp/of.c: dev_pm_opp_of_register_em() and
 * kernel/power/energy_model.c: em_dev_register_perf_domain(), one domain
 * after the other as cpufreq brings the policies up; then
 * em_check_capacity_update() with the final capacities.
 */
static int em_register_pd(struct em_model *m, struct em_pd *pd, bool last)
{
	int first = pd->first_cpu, node = m->cpu[first].node, cpu;
	uint32_t coeff = 0, cap = 0, c;
	bool present;
	char list[EM_CPULIST_LEN];

	em_cpulist(list, sizeof(list), &pd->cpus);
	/* em_create_pd(): EM_MAX_NUM_CPUS */
	if ((unsigned int)em_cpus_weight(&pd->cpus) > em_max_num_cpus(m))
		return em_fail(m, m->cpu[first].opp_table, NULL,
			       "shared by %d CPUs: \"cpu %s: EM: too many CPUs, overflow possible\" (at most %u on %s), no EM for pd %s; fix: split the OPP table",
			       em_cpus_weight(&pd->cpus), pd->name,
			       em_max_num_cpus(m),
			       m->arch == EM_ARCH_ARM64 ? "64-bit" : "32-bit",
			       pd->name);

	/* the last policy completes the capacities before its EM */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (!em_cpu_test(&pd->cpus, cpu))
			continue;
		c = last ? m->cpu[cpu].capacity :
			   m->cpu[cpu].early_capacity;
		if (cpu != first && c != cap)
			return em_fail(m, m->cpu[cpu].node, NULL,
				       "%scapacity %u, cpu%d has %u: \"cpu %s: EM: CPUs of %s must have the same capacity\", no EM for pd %s; fix: give the CPUs of one OPP table the same capacity-dmips-mhz%s",
				       last ? "" : "early ", c, first, cap,
				       pd->name, list, pd->name, pd->why_all);
		cap = c;
	}
	if (cap != m->cpu[first].capacity)
		em_note(m, node, NULL,
			"pd %s registers its EM with the early capacity %u (capacity_freq_ref at boot: %u kHz), which becomes %u once every CPU has a cpufreq policy; states found inefficient with either stay so",
			pd->name, cap, m->cpu[first].boot_fref,
			m->cpu[first].capacity);

	/* _of_has_opp_microwatt_property(): the lowest OPP decides */
	pd->dt_power = pd->opps[0].u_watt;
	if (em_read_u32(m, node, "dynamic-power-coefficient", &coeff,
			&present)) {
		if (!pd->dt_power)
			return -1;
		m->error[0] = '\0';
		present = false;
	}
	pd->coeff = present ? coeff : 0;
	if (!pd->dt_power && (!present || !coeff))
		return em_fail(m, node, "dynamic-power-coefficient",
			       "%s: cpufreq-dt registers no EM for pd %s (cpus %s) and says nothing (only dev_dbg \"Couldn't find proper 'dynamic-power-coefficient' in DT\"); fix: add dynamic-power-coefficient = <uW/MHz/V^2> to the cpu node (Exynos5422: 90 on A7, 310 on A15)%s",
			       present ? "is 0" : "missing", pd->name, list,
			       m->android ? android_msg[1] : "");

	if (em_create_perf_table(m, pd, pd->dt_power, coeff))
		return -1;
	em_init_performance(pd, cap);
	pd->flags = EM_PERF_DOMAIN_MICROWATTS;
	/* em_cpufreq_update_efficiencies(), at registration only */
	if (em_compute_costs(m, pd))
		pd->flags |= EM_PERF_DOMAIN_SKIP_INEFFICIENCIES;
	return 0;
}

/*
 * drivers/opp/of.c: dev_pm_opp_of_register_em() and
 * kernel/power/energy_model.c: em_dev_register_perf_domain(), one domain
 * after the other as cpufreq brings the policies up; then
 * em_check_capacity_update() with the final capacities. A domain the
 * kernel registers no EM for keeps its reason in pd->error.
 */
static int em_register(struct em_model *m)
{
	int k;

	/* cpufreq-dt: cpufreq_init() needs the policy CPU's clock */
	for (k = 0; k < m->nr_pds; k++) {
		struct em_pd *pd = &m->pd[k];
		int node = m->cpu[pd->first_cpu].node;

		if (em_has_prop(m, node, "clocks"))
			continue;
		return em_fail(m, node, "clocks",
			       "missing: \"cpu %s: cpufreq_init: failed to get clk: -2\", no cpufreq policy and no EM for pd %s; fix: add clocks = <&cluster_clock> to every cpu node",
			       pd->name, pd->name);
	}

	for (k = 0; k < m->nr_pds; k++) {
		struct em_pd *pd = &m->pd[k];

		pd->have = EM_HAVE_ALL;
		if (!em_register_pd(m, pd, k == m->nr_pds - 1))
			continue;
		memcpy(pd->error, m->error, sizeof(pd->error));
		m->error[0] = '\0';
		free(pd->states);
		pd->states = NULL;
		pd->nr_states = 0;
		m->nr_failed++;
	}

	/* em_check_capacity_update() -> em_adjust_new_capacity() */
	for (k = 0; k < m->nr_pds; k++) {
		struct em_pd *pd = &m->pd[k];

		pd->capacity = m->cpu[pd->first_cpu].capacity;
		if (!pd->nr_states ||
		    pd->states[pd->nr_states - 1].performance == pd->capacity)
			continue;
		em_init_performance(pd, pd->capacity);
		em_compute_costs(m, pd);
	}
	for (k = 0; k < m->nr_pds; k++)
		if (m->pd[k].error[0]) {
			memcpy(m->error, m->pd[k].error, sizeof(m->error));
			return -1;
		}
	return 0;
}

/* "%*pbl": 0-3,5 */
int em_cpulist(char *buf, size_t len, const struct em_cpumask *cpus)
{
	int cpu = 0, end, n = 0;

	buf[0] = '\0';
	while (cpu < EM_NR_CPUS) {
		if (!em_cpu_test(cpus, cpu)) {
			cpu++;
			continue;
		}
		for (end = cpu; end + 1 < EM_NR_CPUS && em_cpu_test(cpus, end + 1); end++)
			;
		if (end > cpu)
			n += snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "",
				      cpu, end);
		else
			n += snprintf(buf + n, len - n, "%s%d", n ? "," : "", cpu);
		if ((size_t)n >= len)
			return -1;
		cpu = end + 1;
	}
	return n;
}

/* Parse a "%*pbl" list, like 0-3,5; -1 if malformed or past EM_NR_CPUS */
int em_parse_cpulist(const char *s, struct em_cpumask *cpus)
{
	unsigned long a, b;
	char *end;

	memset(cpus, 0, sizeof(*cpus));
	if (!*s)
		return -1;
	for (;;) {
		if (*s < '0' || *s > '9')
			return -1;
		a = strtoul(s, &end, 10);
		b = a;
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -1;
			b = strtoul(s, &end, 10);
		}
		if (a > b || b >= EM_NR_CPUS)
			return -1;
		for (; a <= b; a++)
			em_cpu_set(cpus, a);
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

/**
 * em_model_load() - read a DTB and compute the EM Linux 6.12 builds from it
 * @m:		the model to fill in; m->error says why on failure
 * @file:	the DTB
 * @opt:	what the DT does not say
 *
 * Return: 0, or -1 if the kernel would build no EM (or the file is no DTB).
 */
static int em_model_compute(struct em_model *m, const struct em_options *opt);

int em_model_load(struct em_model *m, const char *file,
		  const struct em_options *opt)
{
	memset(m, 0, sizeof(*m));
	m->file = file;
	m->cap_first_missing = -1;

	if (em_read_file(m)) {
		m->bad_file = true;
		return -1;
	}
	return em_model_compute(m, opt);
}

/**
 * em_model_load_mem() - em_model_load() on a DTB in memory
 * @m:		the model to fill in
 * @name:	a name for messages
 * @buf:	the blob (copied)
 * @size:	its size
 * @opt:	what the DT does not say
 *
 * Return: 0, or -1 as em_model_load().
 */
int em_model_load_mem(struct em_model *m, const char *name, const void *buf,
		      size_t size, const struct em_options *opt)
{
	memset(m, 0, sizeof(*m));
	m->file = name;
	m->cap_first_missing = -1;
	m->fdt = malloc(size ? size : 1);
	if (!m->fdt) {
		m->bad_file = true;
		return em_fail(m, -1, NULL, "out of memory");
	}
	memcpy(m->fdt, buf, size);
	if (em_check_blob(m, size)) {
		m->bad_file = true;
		return -1;
	}
	return em_model_compute(m, opt);
}

/*
 * Android's EAS before mainline's (its 4.4 to 4.14 kernels) read an energy
 * model of its own from sched-energy-costs on the cpu nodes, pointing to
 * /cpus/energy-costs: mainline has never read them. Say so once, at the
 * first place found.
 */
static void em_find_android(struct em_model *m)
{
	const char *ignored = android_msg[0];
	int cpu, node = fdt_path_offset(m->fdt, "/cpus/energy-costs");

	if (node < 0)
		node = fdt_path_offset(m->fdt, "/energy-costs");
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (em_has_prop(m, m->cpu[cpu].node, "sched-energy-costs")) {
			em_note(m, m->cpu[cpu].node, "sched-energy-costs", "%s",
				ignored);
			m->android = true;
			return;
		}
	if (node >= 0) {
		em_note(m, node, NULL, "%s", ignored);
		m->android = true;
	}
}

static int em_model_compute(struct em_model *m, const struct em_options *opt)
{
	int k;

	em_guess_arch(m, opt);
	if (em_find_cpus(m))
		return -1;
	em_find_android(m);
	if (em_find_opp_tables(m) || em_make_pds(m))
		return -1;
	for (k = 0; k < m->nr_pds; k++)
		if (em_parse_opps(m, &m->pd[k]))
			return -1;
	if (em_capacity(m, opt) || em_register(m))
		return -1;
	return 0;
}

unsigned int em_max_num_cpus(const struct em_model *m)
{
	return m->arch == EM_ARCH_ARM64 ? EM_MAX_NUM_CPUS_64 :
					  EM_MAX_NUM_CPUS_32;
}

void em_model_free(struct em_model *m)
{
	int k;

	for (k = 0; k < m->nr_pds; k++) {
		free(m->pd[k].opps);
		free(m->pd[k].states);
	}
	free(m->fdt);
	m->fdt = NULL;
}

/**
 * em_unit_name() - the unit of an EM's power, for tables and JSON
 * @unit:	EM_UNIT_*
 *
 * Return: "uW", "mW" or "abstract".
 */
const char *em_unit_name(enum em_unit unit)
{
	return unit == EM_UNIT_UW ? "uW" : unit == EM_UNIT_MW ? "mW" : "abstract";
}

/**
 * em_cost_name() - how an EM's cost was computed, for messages and JSON
 * @cost:	EM_COST_*
 *
 * Return: the formula, with the kernels that use it.
 */
const char *em_cost_name(enum em_cost cost)
{
	return cost == EM_COST_PERF ? "10 * power / performance (v6.9+)" :
				      "power * fmax / frequency (before v6.9)";
}
