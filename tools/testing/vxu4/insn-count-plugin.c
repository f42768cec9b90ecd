// SPDX-License-Identifier: GPL-2.0
/*
 * insn-count-plugin - a QEMU TCG plugin that gives each vCPU of the
 * virtual XU4 its own instruction count, in guest memory
 *
 * Under "-icount" QEMU runs the vCPUs round-robin on one host thread and
 * guest time is the count of all the instructions executed, whichever
 * vCPU executed them. How much of that time a given vCPU ran is QEMU's
 * scheduling, which the guest cannot see from its clock. This plugin
 * counts the instructions of each vCPU, per translation block at the start
 * of its execution, into the page of guest RAM that the guest's device
 * tree reserves for them (compatible "linux,virt-insn-counters", layout in
 * its binding): drivers/misc/virt-cpu-speed.c charges each CPU its own.
 *
 * Two limits of QEMU 10.0's plugin API shape it:
 *  - a plugin cannot write guest memory, so the guest's RAM is a shared
 *    file (-object memory-backend-file,share=on) that the plugin maps too
 *    (scripts/vxu4.sh sets it up);
 *  - under round-robin TCG (and so under -icount) the vCPU index that QEMU
 *    passes to callbacks and inline operations is the one of the vCPU that
 *    translated the block, not of the one executing it, since all vCPUs
 *    share translations (accel/tcg/plugin-gen.c, gen_cpu_index(): without
 *    CF_PARALLEL it is folded into a constant). So the plugin tells the
 *    vCPUs apart by a register: TPIDRPRW, where Linux on ARMv7 keeps the
 *    CPU's per-CPU offset, and which the guest's driver publishes for each
 *    vCPU in the page. Blocks run before the guest published it are not
 *    counted.
 *
 * Reading the register costs about 40 ns per block through the plugin API
 * (a boot took 1.7 times as long as without the plugin). So it is read
 * only until the vCPU's value is published; from then on the vCPU is
 * known by QEMU's own thread-local pointer to the running vCPU,
 * current_cpu, which qemu-system-* exports to its loadable modules: the
 * plugin compares it, never dereferences it, so no QEMU structure's
 * layout is assumed (1.02 times as long as without the plugin). Where
 * QEMU does not export it, or two of its vCPUs turn out to be the same
 * guest CPU, every block reads the register. Both ways count the same
 * instructions to the same vCPU (a boot's console was byte for byte the
 * same), except those of a vCPU that PSCI's CPU_ON has reset (TPIDRPRW
 * back to 0), until Linux sets its TPIDRPRW again: the register does
 * not tell whose they are, QEMU's pointer does.
 *
 * Cheaper ways were measured and are out (the docs give the figures):
 *  - an inline add per block (no call): under round robin QEMU 10.0's
 *    gen_plugin_u64_ptr() multiplies the folded vCPU index in place, and
 *    with more than one vCPU the guest's state is corrupted (a one-line
 *    plugin aborts the boot in arm_mmu_idx_el());
 *  - reading the register only every 256 instructions and at WFI, WFE
 *    and YIELD: twice as fast, but where QEMU ends a vCPU's turn between
 *    two reads depends on the host's timing, so the few instructions
 *    charged to the wrong vCPU there made two boots of the same files
 *    differ (a 2 s rt-app run's energy by up to 54%).
 *
 * Arguments:
 *	ram=PATH	the guest RAM's backing file
 *	offset=BYTES	the page's offset in that file (its guest physical
 *			address less the RAM's base), a multiple of 4096
 *
 * The count of a block is added when the block starts: an exception that
 * ends a block early (a page fault, an undefined instruction) counts its
 * remaining instructions too. WFI and system calls end their blocks.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define pr_err(fmt, ...) fprintf(stderr, "insn-count plugin: " fmt, ##__VA_ARGS__)

/*
 * The page, as u64 words: 0..63 the instruction counts of the vCPUs by
 * hardware ID (written here), 64..127 the vCPUs' IDs (written by the
 * guest): bit 32 set once published, bits 31:0 the value of TPIDRPRW.
 */
#define PAGE_SIZE_BYTES		4096
#define MAX_VCPUS		64
#define ID_PUBLISHED		(UINT64_C(1) << 32)

static uint64_t *page;
static struct qemu_plugin_register *tpidrprw;
static GByteArray *regbuf;

/*
 * QEMU's own pointer to the vCPU running in this thread (a thread-local
 * CPUState *, exported by qemu-system-* for its loadable modules), looked
 * up once per thread; NULL where QEMU does not export it.
 */
static __thread void *const *current_cpu_p;
static __thread bool current_cpu_looked_up;
static bool current_cpu_unusable;

/* The vCPUs seen so far: QEMU's CPUState (never dereferenced) to index. */
struct vcpu_key {
	const void *cpu;
	int vcpu;		/* index in the page once published, else -1 */
	uint32_t tpidrprw;	/* its published TPIDRPRW */
};

static struct vcpu_key keys[MAX_VCPUS];
static unsigned int nr_keys;
static struct vcpu_key *last_key;

/* The value of TPIDRPRW last seen, and whose it is (-1: not published). */
static uint32_t cur_tpidrprw;
static int cur_vcpu = -1;
static unsigned int unknown;

/* The vCPU whose published TPIDRPRW is @val, or -1. */
static int vcpu_of(uint32_t val)
{
	int i;

	for (i = 0; i < MAX_VCPUS; i++)
		if (page[MAX_VCPUS + i] == (ID_PUBLISHED | val))
			return i;
	return -1;
}

/* The running vCPU's TPIDRPRW, read through the plugin API: false if not. */
static bool read_tpidrprw(uint32_t *val)
{
	g_byte_array_set_size(regbuf, 0);
	if (qemu_plugin_read_register(tpidrprw, regbuf) != 4)
		return false;
	memcpy(val, regbuf->data, sizeof(*val));
	return true;
}

/* The running vCPU's entry in keys[], or NULL where QEMU has no current_cpu. */
static struct vcpu_key *running_key(void)
{
	struct vcpu_key *k;
	const void *cpu;
	unsigned int i;

	if (!current_cpu_looked_up) {
		current_cpu_p = dlsym(RTLD_DEFAULT, "current_cpu");
		current_cpu_looked_up = true;
	}
	if (!current_cpu_p || current_cpu_unusable)
		return NULL;
	cpu = *current_cpu_p;
	if (last_key && last_key->cpu == cpu)
		return last_key;
	for (i = 0, k = keys; i < nr_keys && k->cpu != cpu; i++, k++)
		;
	if (i == nr_keys) {
		if (nr_keys == MAX_VCPUS)
			return NULL;
		k->cpu = cpu;
		k->vcpu = -1;
		nr_keys++;
	}
	last_key = k;
	return k;
}

/*
 * @k's vCPU is the page's @vcpu, whose published TPIDRPRW is @val. If
 * another of QEMU's vCPUs was that one already, current_cpu is not what
 * it is taken for: the register is read at every block from then on.
 */
static void key_published(struct vcpu_key *k, int vcpu, uint32_t val)
{
	unsigned int i;

	for (i = 0; i < nr_keys; i++) {
		if (&keys[i] != k && keys[i].vcpu == vcpu) {
			pr_err("QEMU's vCPUs %p and %p both run guest CPU %d: telling them apart by TPIDRPRW only\n",
			       keys[i].cpu, k->cpu, vcpu);
			current_cpu_unusable = true;
			return;
		}
	}
	k->tpidrprw = val;
	k->vcpu = vcpu;
}

/*
 * Before each block's instructions, in the (one) vCPU thread. The vCPU is
 * told by its TPIDRPRW, read from the register only until the guest has
 * published it: from then on QEMU's CPUState of that vCPU stands for it,
 * which costs a thread-local load and a compare instead of a register
 * read. A value not published yet (the guest's boot, before the driver
 * starts) is looked up again only every 1024 blocks: a scan of the page
 * per block made the boot 2.5 times as slow.
 */
static void tb_exec(unsigned int translator_index, void *udata)
{
	struct vcpu_key *k = running_key();
	uint32_t val;

	(void)translator_index;
	if (k && k->vcpu >= 0) {
		if (k->vcpu != cur_vcpu) {
			cur_tpidrprw = k->tpidrprw;
			cur_vcpu = k->vcpu;
		}
		page[cur_vcpu] += (uintptr_t)udata;
		return;
	}
	if (!read_tpidrprw(&val))
		return;
	if (val != cur_tpidrprw || (cur_vcpu < 0 && !(++unknown % 1024))) {
		cur_tpidrprw = val;
		cur_vcpu = vcpu_of(val);
		if (k && cur_vcpu >= 0)
			key_published(k, cur_vcpu, val);
	}
	if (cur_vcpu >= 0)
		page[cur_vcpu] += (uintptr_t)udata;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_R_REGS,
					     (void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	GArray *regs;
	guint i;

	(void)vcpu_index;
	if (tpidrprw)
		return;
	regs = qemu_plugin_get_registers();
	for (i = 0; i < regs->len; i++) {
		qemu_plugin_reg_descriptor *d =
			&g_array_index(regs, qemu_plugin_reg_descriptor, i);

		if (!strcmp(d->name, "TPIDRPRW"))
			tpidrprw = d->handle;
	}
	g_array_free(regs, TRUE);
	if (!tpidrprw) {
		pr_err("this CPU has no TPIDRPRW register (an ARMv7 CPU with the multiprocessing extensions is needed)\n");
		qemu_plugin_uninstall(id, NULL);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *ram = NULL;
	long long offset = -1;
	char *end;
	void *map;
	int fd, i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "ram=", 4)) {
			ram = argv[i] + 4;
		} else if (!strncmp(argv[i], "offset=", 7)) {
			errno = 0;
			offset = strtoll(argv[i] + 7, &end, 0);
			if (errno || *end || offset < 0 || offset % PAGE_SIZE_BYTES)
				offset = -1;
		} else {
			pr_err("unknown argument %s (ram=PATH,offset=BYTES)\n", argv[i]);
			return -1;
		}
	}
	if (!ram || offset < 0) {
		pr_err("needs ram=PATH (the guest RAM's backing file) and offset=BYTES (a multiple of %d)\n",
		       PAGE_SIZE_BYTES);
		return -1;
	}
	if (!info->system_emulation || info->system.max_vcpus > MAX_VCPUS) {
		pr_err("system emulation of at most %d vCPUs only\n", MAX_VCPUS);
		return -1;
	}
	fd = open(ram, O_RDWR);
	if (fd < 0) {
		pr_err("%s: %s\n", ram, strerror(errno));
		return -1;
	}
	map = mmap(NULL, PAGE_SIZE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)offset);
	close(fd);
	if (map == MAP_FAILED) {
		pr_err("%s at offset %lld: %s\n", ram, offset, strerror(errno));
		return -1;
	}
	page = map;
	memset(map, 0, PAGE_SIZE_BYTES);
	regbuf = g_byte_array_sized_new(16);
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
