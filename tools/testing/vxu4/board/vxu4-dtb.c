// SPDX-License-Identifier: GPL-2.0
/*
 * vxu4-dtb - make the virtual Odroid-XU4's device tree
 *
 * Takes QEMU's own "virt" device tree (qemu-system-arm -machine
 * virt,dumpdtb=...) and lays over it the CPU description of a real board's
 * DTB, so that nothing of the board is typed by hand:
 *
 *  - board CPU i (in /cpus order, as logical CPU i on the board) describes
 *    QEMU's cpu@i: compatible, capacity-dmips-mhz, dynamic-power-coefficient;
 *  - each OPP table the board's CPUs use is copied whole, and a
 *    "linux,virt-cluster-clock" node per table stands in for the cluster
 *    PLL; every CPU gets clocks and operating-points-v2 pointing at them;
 *  - the board's /cpus/cpu-map replaces QEMU's, CPU phandles translated;
 *  - a "linux,virt-cluster-power-meter" per cluster (labelled after its
 *    core, e.g. "a15"), the emulated hardware that makes the vCPUs as
 *    power-hungry as the board's (CPUs clocked by virt-cluster clocks are
 *    as slow as the board's: drivers/misc/virt-cpu-speed.c needs no node);
 *  - with an IDLE_MODEL (tools/power/eas/idle-power-fit --dtb-model), each
 *    meter's "idle-power-microwatt": per OPP of its cluster, <kHz
 *    leakage-uW wfi-uW>, leakage A * exp(B * V) and the power of one CPU
 *    in WFI C * V^2 * f at the OPP's voltage V (opp-microvolt) and
 *    frequency f (MHz), from the line of the model whose cluster is the
 *    meter's label ("a15 A_uW B_per_volt C_uW_per_MHz_V2").
 *
 *  - a page at the top of RAM reserved for the vCPUs' instruction counts
 *    ("linux,virt-insn-counters", no-map), which the QEMU plugin
 *    tools/testing/vxu4/board/insn-count-plugin.c keeps and the CPU speed reads;
 *  - a fixed /chosen/rng-seed (add_rng_seed(): the CRNG ready at boot).
 *
 * QEMU's reg values (the MPIDRs 0..n-1), enable-method, interrupt
 * controller, timer and devices are kept: they are what the vCPUs are.
 *
 * Usage: vxu4-dtb QEMU.dtb BOARD.dtb OUT.dtb [IDLE_MODEL]
 * Exit: 0 written, 2 bad input (nothing written).
 */

#include <errno.h>
#include <libfdt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS	32
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define EXTRA_SPACE	(64 * 1024)
#define INSN_COUNTERS_SIZE	4096

static const char *qemu_path, *board_path, *model_path;

static void __noreturn __printf(1, 2) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vxu4-dtb: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *load_dtb(const char *path, size_t extra)
{
	FILE *f = fopen(path, "rb");
	long size;
	void *buf, *out;
	int err;

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END))
		die("%s: cannot read: %s", path, strerror(errno));
	size = ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET))
		die("%s: cannot read: %s", path, strerror(errno));
	buf = malloc(size ? size : 1);
	if (!buf || fread(buf, 1, size, f) != (size_t)size)
		die("%s: cannot read %ld bytes", path, size);
	fclose(f);

	if ((size_t)size < sizeof(struct fdt_header))
		die("%s: not a valid DTB (truncated); rebuild it with dtc or 'make dtbs'",
		    path);
	err = fdt_check_header(buf);
	if (err || fdt_totalsize(buf) > (size_t)size)
		die("%s: not a valid DTB (%s); rebuild it with dtc or 'make dtbs'",
		    path, err ? fdt_strerror(err) : "truncated");

	out = malloc(size + extra);
	if (!out)
		die("out of memory");
	err = fdt_open_into(buf, out, size + extra);
	if (err)
		die("%s: %s", path, fdt_strerror(err));
	free(buf);
	return out;
}

static void check(int err, const char *what)
{
	if (err < 0)
		die("cannot %s in the output tree: %s", what, fdt_strerror(err));
}

/* CPU nodes of /cpus in tree order: the order of logical CPUs. */
static int cpu_nodes(const void *fdt, const char *path, int *off)
{
	int cpus = fdt_path_offset(fdt, "/cpus");
	int node, n = 0;

	if (cpus < 0)
		die("%s: no /cpus node", path);
	fdt_for_each_subnode(node, fdt, cpus) {
		const char *type = fdt_getprop(fdt, node, "device_type", NULL);

		if (!type || strcmp(type, "cpu"))
			continue;
		if (n == MAX_CPUS)
			die("%s: more than %d CPUs", path, MAX_CPUS);
		off[n++] = node;
	}
	return n;
}

static unsigned int get_u32(const void *fdt, const char *path, int node,
			    const char *prop)
{
	int len;
	const fdt32_t *val = fdt_getprop(fdt, node, prop, &len);

	if (!val)
		die("%s: %s has no '%s'; add it to the board's DT", path,
		    fdt_get_name(fdt, node, NULL), prop);
	if (len != sizeof(*val))
		die("%s: %s: '%s' has %d bytes, expected one cell", path,
		    fdt_get_name(fdt, node, NULL), prop, len);
	return fdt32_to_cpu(*val);
}

/* Copy property @name of @src:@soff to @dst:@doff, if it exists. */
static void copy_prop(void *dst, int doff, const void *src, int soff,
		      const char *name)
{
	int len;
	const void *val = fdt_getprop(src, soff, name, &len);

	if (val)
		check(fdt_setprop(dst, doff, name, val, len), "copy a property");
}

/* Copy @src:@soff and its subtree as child @name of @dst:@dparent. */
static int copy_node(void *dst, int dparent, const void *src, int soff,
		     const char *name)
{
	int child[256], nchild = 0, doff, prop, c;

	doff = fdt_add_subnode(dst, dparent, name);
	check(doff, "add a node");

	fdt_for_each_property_offset(prop, src, soff) {
		const char *pname;
		int len;
		const void *val = fdt_getprop_by_offset(src, prop, &pname, &len);

		if (!val)
			die("%s: %s: unreadable property", board_path,
			    fdt_get_name(src, soff, NULL));
		if (!strcmp(pname, "phandle") || !strcmp(pname, "linux,phandle"))
			continue;
		check(fdt_setprop(dst, doff, pname, val, len), "copy a property");
	}

	fdt_for_each_subnode(c, src, soff) {
		if (nchild == (int)ARRAY_SIZE(child))
			die("%s: %s: too many subnodes", board_path,
			    fdt_get_name(src, soff, NULL));
		child[nchild++] = c;
	}
	/* fdt_add_subnode() prepends: add in reverse to keep the order. */
	while (nchild--) {
		c = child[nchild];
		copy_node(dst, doff, src, c, fdt_get_name(src, c, NULL));
	}
	return doff;
}

/* Offset of the node @name under @parent in @fdt, by path. */
static int node_by_path(const void *fdt, const char *a, const char *b)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", a, b);
	return fdt_path_offset(fdt, path);
}

/*
 * Copy the board's cpu-map under @dpath in @dst, recursively, translating
 * "cpu" phandles from board CPU i to QEMU CPU i.
 */
static void copy_cpu_map(void *dst, const char *dpath, const void *src,
			 int soff, const int *board_cpu, const unsigned int *qemu_ph,
			 int ncpus)
{
	int child[64], nchild = 0, c, doff, len, i;
	const fdt32_t *ph = fdt_getprop(src, soff, "cpu", &len);

	doff = fdt_path_offset(dst, dpath);
	check(doff, "find the new cpu-map");
	if (ph) {
		int target;

		if (len != sizeof(*ph))
			die("%s: cpu-map %s: 'cpu' is not one phandle", board_path,
			    fdt_get_name(src, soff, NULL));
		target = fdt_node_offset_by_phandle(src, fdt32_to_cpu(*ph));
		for (i = 0; i < ncpus; i++)
			if (board_cpu[i] == target)
				break;
		if (i == ncpus)
			die("%s: cpu-map %s points to no CPU node", board_path,
			    fdt_get_name(src, soff, NULL));
		check(fdt_setprop_u32(dst, doff, "cpu", qemu_ph[i]),
		      "set a cpu-map phandle");
	}

	fdt_for_each_subnode(c, src, soff) {
		if (nchild == (int)ARRAY_SIZE(child))
			die("%s: cpu-map: too many subnodes", board_path);
		child[nchild++] = c;
	}
	while (nchild--) {
		const char *name = fdt_get_name(src, child[nchild], NULL);
		char path[256];

		doff = fdt_path_offset(dst, dpath);
		check(fdt_add_subnode(dst, doff, name), "add a cpu-map node");
		snprintf(path, sizeof(path), "%s/%s", dpath, name);
		copy_cpu_map(dst, path, src, child[nchild], board_cpu, qemu_ph,
			     ncpus);
	}
}

static unsigned int new_phandle(void *fdt)
{
	/* One above the highest in use, as fdt_generate_phandle() does. */
	unsigned int ph = fdt_get_max_phandle(fdt) + 1;

	if (!ph || ph >= FDT_MAX_PHANDLE)
		die("no phandle left in the output tree");
	return ph;
}

/*
 * The meter's "idle-power-microwatt" from the IDLE_MODEL line of @label,
 * for the OPP table the board CPU @bcpu uses. No line: no property (the
 * meter then counts no idle power).
 */
static void add_idle_power(void *q, int off, const char *label, const void *b,
			   int bcpu)
{
	char name[32];
	double a, k, c;
	unsigned int cells[3 * 64];
	int n = 0, found = 0, line = 0, table, opp, i, j;
	FILE *f;

	if (!model_path)
		return;
	f = fopen(model_path, "r");
	if (!f)
		die("%s: cannot read: %s; make it with tools/power/eas/idle-power-fit --dtb-model",
		    model_path, strerror(errno));
	for (;;) {
		int r = fscanf(f, "%31s %lf %lf %lf", name, &a, &k, &c);

		if (r == EOF)
			break;
		line++;
		if (r != 4 || a < 0 || k < 0 || c < 0)
			die("%s: line %d: want 'CLUSTER A_uW B_per_volt C_uW_per_MHz_V2', all >= 0",
			    model_path, line);
		if (!strcmp(name, label)) {
			found = 1;
			break;
		}
	}
	fclose(f);
	if (!found)
		die("%s: no line for cluster %s: add its fit (tools/power/eas/idle-power-fit)",
		    model_path, label);

	table = fdt_node_offset_by_phandle(b, get_u32(b, board_path, bcpu,
						      "operating-points-v2"));
	fdt_for_each_subnode(opp, b, table) {
		const fdt64_t *hz = fdt_getprop(b, opp, "opp-hz", &i);
		const fdt32_t *uv;
		double mhz, v;
		int len;

		if (!hz || i < (int)sizeof(*hz))
			continue;
		uv = fdt_getprop(b, opp, "opp-microvolt", &len);
		if (!uv || len < (int)sizeof(*uv))
			die("%s: %s: no opp-microvolt: the leakage needs each OPP's voltage",
			    board_path, fdt_get_name(b, opp, NULL));
		if (n == (int)ARRAY_SIZE(cells))
			die("%s: more than %zu OPPs in a table", board_path,
			    ARRAY_SIZE(cells) / 3);
		mhz = fdt64_to_cpu(*hz) / 1e6;
		v = fdt32_to_cpu(*uv) / 1e6;
		cells[n] = (unsigned int)(mhz * 1000 + 0.5);
		cells[n + 1] = (unsigned int)(a * exp(k * v) + 0.5);
		cells[n + 2] = (unsigned int)(c * v * v * mhz + 0.5);
		n += 3;
	}
	if (!n)
		die("%s: the OPP table of %s has no opp-hz", board_path,
		    fdt_get_name(b, bcpu, NULL));
	/* Ascending frequency (a few entries: insertion sort). */
	for (i = 3; i < n; i += 3)
		for (j = i; j > 0 && cells[j - 3] > cells[j]; j -= 3) {
			unsigned int t[3];

			memcpy(t, &cells[j - 3], sizeof(t));
			memcpy(&cells[j - 3], &cells[j], sizeof(t));
			memcpy(&cells[j], t, sizeof(t));
		}
	for (i = 0; i < n; i++)
		cells[i] = cpu_to_fdt32(cells[i]);
	check(fdt_setprop(q, off, "idle-power-microwatt", cells,
			  n * sizeof(cells[0])), "set a meter's idle power");
}

/*
 * A power meter for cluster @n, whose clock is @clk_ph, labelled after the
 * core of its first board CPU @bcpu ("arm,cortex-a15" gives "a15").
 */
static void add_power_meter(void *q, int n, unsigned int clk_ph,
			    const void *b, int bcpu)
{
	const char *compat = fdt_getprop(b, bcpu, "compatible", NULL);
	const char *core = compat ? strstr(compat, "cortex-") : NULL;
	char name[32], label[32];
	int off;

	snprintf(name, sizeof(name), "power-meter-%d", n);
	if (core)
		snprintf(label, sizeof(label), "%s", core + strlen("cortex-"));
	else
		snprintf(label, sizeof(label), "cluster%d", n);

	off = fdt_add_subnode(q, fdt_path_offset(q, "/"), name);
	check(off, "add a power meter");
	check(fdt_setprop_string(q, off, "compatible",
				 "linux,virt-cluster-power-meter"),
	      "set a power meter compatible");
	check(fdt_setprop_u32(q, off, "clocks", clk_ph), "set a meter clock");
	check(fdt_setprop_string(q, off, "label", label), "set a meter label");
	check(fdt_setprop_u32(q, off, "static-power-microwatt", 0),
	      "set a meter static power");
	add_idle_power(q, off, label, b, bcpu);
}

/*
 * The last page of QEMU's one RAM bank (/memory@..., 2 address and 2 size
 * cells, as QEMU virt has), reserved for the instruction counters.
 */
static void add_insn_counters(void *q)
{
	const fdt32_t *reg;
	uint64_t base, size, page;
	int mem, rsv, off, len;
	char name[48];

	mem = fdt_node_offset_by_prop_value(q, -1, "device_type", "memory",
					    sizeof("memory"));
	if (mem < 0)
		die("%s: no memory node", qemu_path);
	reg = fdt_getprop(q, mem, "reg", &len);
	if (!reg || len != 16 || fdt_address_cells(q, 0) != 2 || fdt_size_cells(q, 0) != 2)
		die("%s: %s: one bank of 2 address and 2 size cells expected",
		    qemu_path, fdt_get_name(q, mem, NULL));
	base = (uint64_t)fdt32_to_cpu(reg[0]) << 32 | fdt32_to_cpu(reg[1]);
	size = (uint64_t)fdt32_to_cpu(reg[2]) << 32 | fdt32_to_cpu(reg[3]);
	if (size < 2 * INSN_COUNTERS_SIZE)
		die("%s: RAM too small", qemu_path);
	page = base + size - INSN_COUNTERS_SIZE;

	rsv = fdt_path_offset(q, "/reserved-memory");
	if (rsv < 0) {
		rsv = fdt_add_subnode(q, 0, "reserved-memory");
		check(rsv, "add /reserved-memory");
		check(fdt_setprop_u32(q, rsv, "#address-cells", 2), "set #address-cells");
		check(fdt_setprop_u32(q, rsv, "#size-cells", 2), "set #size-cells");
		check(fdt_setprop_empty(q, rsv, "ranges"), "set ranges");
	}
	snprintf(name, sizeof(name), "insn-counters@%llx", (unsigned long long)page);
	off = fdt_add_subnode(q, rsv, name);
	check(off, "add the instruction counters");
	check(fdt_setprop_string(q, off, "compatible", "linux,virt-insn-counters"),
	      "set the counters' compatible");
	check(fdt_setprop_u64(q, off, "reg", page), "set the counters' address");
	check(fdt_appendprop_u64(q, off, "reg", INSN_COUNTERS_SIZE),
	      "set the counters' size");
	check(fdt_setprop_empty(q, off, "no-map"), "set no-map");
}

static void write_dtb(const char *path, void *fdt)
{
	FILE *f;
	int err = fdt_pack(fdt);

	if (err)
		die("cannot pack the output tree: %s", fdt_strerror(err));
	f = fopen(path, "wb");
	if (!f || fwrite(fdt, 1, fdt_totalsize(fdt), f) != fdt_totalsize(fdt) ||
	    fclose(f)) {
		remove(path);
		die("%s: cannot write: %s", path, strerror(errno));
	}
}

/*
 * A fixed /chosen/rng-seed. The kernel trusts a boot loader's seed
 * (random.trust_bootloader, on by default) and its CRNG is then ready at
 * boot. Without one, the first read of /dev/urandom (rt-app's JSON
 * library seeds its hash tables from it) makes the kernel generate
 * entropy from the jitter of the CPU's timing, which guest time from the
 * instruction count lacks: the guest's first rt-app took 4.4 s of guest
 * time and 164 s of wall time, the next ones 0.2 s. QEMU fills every
 * rng-seed property of the DTB it loads with its own random bytes at each
 * reset (hw/arm/boot.c), whatever this one holds, so scripts/vxu4.sh
 * seeds QEMU's (-seed): every boot then starts the same guest. Nothing in
 * the guest needs its randomness secret.
 */
static void add_rng_seed(void *q)
{
	unsigned char seed[64];
	int off, i;

	for (i = 0; i < (int)sizeof(seed); i++)
		seed[i] = (unsigned char)(i * 37 + 11);
	off = fdt_path_offset(q, "/chosen");
	if (off < 0) {
		off = fdt_add_subnode(q, 0, "chosen");
		check(off, "add /chosen");
	}
	check(fdt_setprop(q, off, "rng-seed", seed, sizeof(seed)), "set the rng-seed");
}

int main(int argc, char **argv)
{
	int bcpu[MAX_CPUS], qcpu[MAX_CPUS], nb, nq, i, j, root, cpus, map;
	unsigned int qph[MAX_CPUS], table_ph[MAX_CPUS], clk_ph[MAX_CPUS];
	int table_off[MAX_CPUS], ntables = 0;
	const char *model;
	char buf[256];
	void *q, *b;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: %s QEMU.dtb BOARD.dtb OUT.dtb [IDLE_MODEL]\n",
			argv[0]);
		return 2;
	}
	qemu_path = argv[1];
	board_path = argv[2];
	model_path = argc == 5 ? argv[4] : NULL;
	q = load_dtb(qemu_path, EXTRA_SPACE);
	b = load_dtb(board_path, 0);

	nb = cpu_nodes(b, board_path, bcpu);
	nq = cpu_nodes(q, qemu_path, qcpu);
	if (nb != nq)
		die("%s has %d CPUs but %s has %d; start QEMU with -smp %d",
		    board_path, nb, qemu_path, nq, nb);

	/* QEMU CPU i is the node whose reg is i (its MPIDR). */
	for (i = 0; i < nq; i++) {
		for (j = 0; j < nq; j++)
			if (get_u32(q, qemu_path, qcpu[j], "reg") == (unsigned int)i)
				break;
		if (j == nq)
			die("%s: no cpu node with reg = <%d>", qemu_path, i);
		qph[i] = fdt_get_phandle(q, qcpu[j]);
		if (!qph[i]) {
			qph[i] = new_phandle(q);
			check(fdt_setprop_u32(q, qcpu[j], "phandle", qph[i]),
			      "set a CPU phandle");
		}
	}

	root = fdt_path_offset(q, "/");
	/* One copied OPP table and one cluster clock per distinct table. */
	for (i = 0; i < nb; i++) {
		unsigned int ph = get_u32(b, board_path, bcpu[i], "operating-points-v2");
		int toff = fdt_node_offset_by_phandle(b, ph);

		if (toff < 0)
			die("%s: %s: operating-points-v2 points to no node",
			    board_path, fdt_get_name(b, bcpu[i], NULL));
		for (j = 0; j < ntables; j++)
			if (table_off[j] == toff)
				break;
		if (j == ntables) {
			const char *name = fdt_get_name(b, toff, NULL);
			int doff, coff;

			table_off[ntables++] = toff;
			if (node_by_path(q, "", name) >= 0)
				die("%s already has a node /%s", qemu_path, name);
			doff = copy_node(q, root, b, toff, name);
			table_ph[j] = new_phandle(q);
			check(fdt_setprop_u32(q, doff, "phandle", table_ph[j]),
			      "set an OPP table phandle");

			snprintf(buf, sizeof(buf), "cluster-clock-%d", j);
			root = fdt_path_offset(q, "/");
			coff = fdt_add_subnode(q, root, buf);
			check(coff, "add a cluster clock");
			check(fdt_setprop_string(q, coff, "compatible",
						 "linux,virt-cluster-clock"),
			      "set a clock compatible");
			check(fdt_setprop_u32(q, coff, "#clock-cells", 0),
			      "set #clock-cells");
			snprintf(buf, sizeof(buf), "cluster%d", j);
			check(fdt_setprop_string(q, coff, "clock-output-names",
						 buf), "set a clock name");
			check(fdt_setprop_u32(q, coff, "operating-points-v2",
					      table_ph[j]), "link a clock to its OPPs");
			clk_ph[j] = new_phandle(q);
			check(fdt_setprop_u32(q, coff, "phandle", clk_ph[j]),
			      "set a clock phandle");
			add_power_meter(q, j, clk_ph[j], b, bcpu[i]);
		}

		/* Offsets moved: look the QEMU CPU node up again. */
		snprintf(buf, sizeof(buf), "/cpus/cpu@%x", i);
		qcpu[i] = fdt_path_offset(q, buf);
		if (qcpu[i] < 0)
			die("%s: no %s", qemu_path, buf);
		copy_prop(q, qcpu[i], b, bcpu[i], "compatible");
		check(fdt_setprop_u32(q, qcpu[i], "capacity-dmips-mhz",
				      get_u32(b, board_path, bcpu[i],
					      "capacity-dmips-mhz")),
		      "set capacity-dmips-mhz");
		check(fdt_setprop_u32(q, qcpu[i], "dynamic-power-coefficient",
				      get_u32(b, board_path, bcpu[i],
					      "dynamic-power-coefficient")),
		      "set dynamic-power-coefficient");
		check(fdt_setprop_u32(q, qcpu[i], "operating-points-v2",
				      table_ph[j]), "set operating-points-v2");
		check(fdt_setprop_u32(q, qcpu[i], "clocks", clk_ph[j]),
		      "set clocks");
		root = fdt_path_offset(q, "/");
	}

	/* The board's cpu-map replaces QEMU's. */
	map = node_by_path(b, "/cpus", "cpu-map");
	if (map < 0)
		die("%s: no /cpus/cpu-map; the board's clusters are unknown",
		    board_path);
	i = node_by_path(q, "/cpus", "cpu-map");
	if (i >= 0)
		check(fdt_del_node(q, i), "delete QEMU's cpu-map");
	cpus = fdt_path_offset(q, "/cpus");
	check(fdt_add_subnode(q, cpus, "cpu-map"), "add the cpu-map");
	copy_cpu_map(q, "/cpus/cpu-map", b, map, bcpu, qph, nb);

	model = fdt_getprop(b, 0, "model", NULL);
	snprintf(buf, sizeof(buf), "Virtual %s (QEMU virt)",
		 model ? model : "board");
	check(fdt_setprop_string(q, 0, "model", buf), "set the model");
	add_insn_counters(q);
	add_rng_seed(q);

	write_dtb(argv[3], q);
	return 0;
}
