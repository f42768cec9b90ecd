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
 * What a vCPU's word counts ("cost="):
 *  - insns: its instructions;
 *  - cycles: its cycles under a cost model, so that the guest's CPU speed
 *    emulation can run each CPU at its clock's rate in cycles a second.
 *    Each instruction of a block is put in a class when QEMU translates
 *    the block, from its disassembly (loads, stores, load and store
 *    multiple, branches, multiplies, divides, VFP/NEON, barriers,
 *    exclusives, other system instructions, cache and TLB maintenance,
 *    writes of TTBR0/1 or CONTEXTIDR (a context switch), exception
 *    returns), and a block that starts in the exception vectors
 *    (0xffff0000, the first 32 bytes) counts one exception entry. A block
 *    is kernel or user by its address. The block's cost is the sum of its
 *    classes' weights, for each core type (the weights file: one
 *    "CORE MODE CLASS CYCLES" line each, CORE a7 or a15, MODE user,
 *    kernel or any), computed once at translation; its execution adds the
 *    cost of the running vCPU's core type (cores=, by hardware ID).
 * In both, each vCPU's class counts (user and kernel) are kept beside the
 * counts, for the guest to read (the cost model's fit needs them), and
 * a format word says what the words count (the binding gives the layout).
 * The class counts leave out the blocks that start while the vCPU's "own"
 * word is set: the guest's CPU speed emulation sets it while its own code
 * runs, which it does not charge as the task's work either.
 *
 * With memory=cache (cost=cycles only), loads and stores also go through
 * a model of the XU4's data caches, fed by QEMU's memory callbacks with
 * each access's physical address: an L1 of 32 KiB per core (2-way on the
 * A15, 4-way on the A7) and an L2 per cluster (2 MiB 16-way on the A15s,
 * 512 KiB 8-way on the A7s), 64-byte lines, least recently used out, no
 * coherence between them. An access that misses the L1 costs one of three
 * events on top of its class's weight: "l2" where the L2 has the line,
 * else "stream" where the line follows one that missed before on the same
 * vCPU (the prefetchers' sequential streams, four a vCPU), else "dram".
 * Their weights are lines of the weights file like the classes'. What it
 * leaves out: instruction fetches, the TLBs and table walks, and that a
 * DRAM access is a time, not a number of cycles, at a lower clock.
 *
 * Arguments:
 *	ram=PATH	the guest RAM's backing file
 *	offset=BYTES	the page's offset in that file (its guest physical
 *			address less the RAM's base), a multiple of 4096
 *	cost=insns|cycles	what the counts are (default insns)
 *	weights=PATH	the cost model's weights (cost=cycles)
 *	cores=LIST	each vCPU's core type by hardware ID, a7 or a15,
 *			separated by ':' (cost=cycles), e.g. a7:a7:a15:a15
 *	kernel=ADDR	the lowest kernel address (default 0xbf000000, the
 *			modules' area below a 3G/1G split's PAGE_OFFSET)
 *	memory=none|cache	the cache model (default none; cache needs
 *			cost=cycles and the events' weights)
 *	classes=PATH	at exit, each mnemonic seen with its class and the
 *			number of its translations (to audit the classes)
 *
 * The count of a block is added when the block starts: an exception that
 * ends a block early (a page fault, an undefined instruction) counts its
 * remaining instructions too. WFI and system calls end their blocks.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
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
 * The page, as u64 words: 0..63 the counts of the vCPUs by hardware ID
 * (written here), 64..127 the vCPUs' IDs (written by the guest): bit 32
 * set once published, bits 31:0 the value of TPIDRPRW; 128 the format
 * (FMT_*); OWN_BASE + i, written by the guest: not zero while vCPU i
 * runs the emulation's own code (FMT_OWN), whose classes and events are
 * not counted; from EV_BASE on, with memory=cache, for the first HIST_VCPUS
 * vCPUs, EV_STRIDE words each: the memory event counts in user mode, then
 * in kernel mode; from HIST_BASE on, for the first HIST_VCPUS vCPUs,
 * HIST_STRIDE words each: the class counts in user mode, then in kernel
 * mode.
 */
#define PAGE_SIZE_BYTES		4096
#define MAX_VCPUS		64
#define ID_PUBLISHED		(UINT64_C(1) << 32)
#define FMT_WORD		128
#define FMT_MAGIC		(UINT64_C(0x5643) << 48)
#define FMT_CYCLES		(UINT64_C(1) << 0)
#define FMT_HIST		(UINT64_C(1) << 1)
#define FMT_CLASSES_SHIFT	8
#define FMT_HIST_VCPUS_SHIFT	16
#define FMT_MEM			(UINT64_C(1) << 2)
#define FMT_EVENTS_SHIFT	24
#define FMT_OWN			(UINT64_C(1) << 3)
#define OWN_BASE		160
#define EV_BASE			192
#define EV_STRIDE		8
#define HIST_BASE		256
#define HIST_STRIDE		32
#define HIST_VCPUS		8

/* Instruction classes: the cost model's inputs (class_names[] below). */
enum insn_class {
	IC_OTHER, IC_LOAD, IC_STORE, IC_LDM, IC_STM, IC_BRANCH, IC_MUL, IC_DIV,
	IC_SIMD, IC_BARRIER, IC_EXCL, IC_SYSREG, IC_MAINT, IC_CTXSW, IC_ERET,
	IC_ENTRY, NR_CLASSES
};

static const char *const class_names[NR_CLASSES] = {
	"other", "load", "store", "ldm", "stm", "branch", "mul", "div",
	"simd", "barrier", "excl", "sysreg", "maint", "ctxsw", "eret", "entry",
};

/* Memory events (memory=cache): an access that misses the L1. */
enum mem_event { EV_L2, EV_DRAM, EV_STREAM, NR_EVENTS };

static const char *const event_names[NR_EVENTS] = { "l2", "dram", "stream" };

enum { MODE_USER, MODE_KERNEL, NR_MODES };
static const char *const mode_names[NR_MODES] = { "user", "kernel" };
enum { CORE_A7, CORE_A15, NR_CORES };
static const char *const core_names[NR_CORES] = { "a7", "a15" };

/* Costs are kept in 1/COST_UNIT of a cycle. */
#define COST_SHIFT		8
#define COST_UNIT		256u	/* 1 << COST_SHIFT */

static bool cost_cycles;
static uint32_t weight[NR_CORES][NR_MODES][NR_CLASSES];
static uint8_t core_of[MAX_VCPUS];
static uint64_t kernel_base = 0xbf000000;
/* The cost so far of each vCPU, 1/COST_UNIT cycle (the page has cycles). */
static uint64_t acc[MAX_VCPUS];
static int nr_cores;		/* vCPUs in cores= */

/*
 * The cache model (memory=cache). A cache is @sets sets of @ways tags,
 * most recently used first; a tag is a line's number plus one, 0 empty.
 */
#define LINE_SHIFT		6
#define STREAMS			4

static bool memory_cache;
static uint32_t ev_weight[NR_CORES][NR_MODES][NR_EVENTS];

struct cache {
	uint32_t sets;		/* a power of two */
	uint32_t ways;
	uint64_t *tag;
};

/* The Exynos 5422's data caches (the cores' TRMs, the SoC's figures). */
static const struct {
	uint32_t l1_bytes, l1_ways, l2_bytes, l2_ways;
} geometry[NR_CORES] = {
	[CORE_A7] = { 32768, 4, 524288, 8 },
	[CORE_A15] = { 32768, 2, 2097152, 16 },
};

static struct cache l1[MAX_VCPUS], l2[NR_CORES];

/* A vCPU's sequential streams: the line each one expects next. */
struct streams {
	uint64_t next[STREAMS];
	unsigned int victim;
};

static struct streams streams[MAX_VCPUS];

/*
 * A block's cost, shared by every block of the same classes (interned:
 * translations come and go, the distinct class counts stay few).
 */
struct tb_cost {
	uint32_t cost[NR_CORES];	/* 1/COST_UNIT cycle */
	uint32_t insns;
	uint8_t mode;
	uint8_t nr;			/* classes present */
	uint8_t cls[NR_CLASSES];
	uint32_t cnt[NR_CLASSES];
};

static GHashTable *costs;	/* struct tb_cost, interned */
static GHashTable *mnemonics;	/* "mnemonic class" -> its translations (uint64_t *) */
static GMutex trans_lock;
static char *classes_path;

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

/* Add the block @c to the vCPU @vcpu's count and class counts. */
static void account(int vcpu, const struct tb_cost *c)
{
	unsigned int i;

	if (cost_cycles) {
		acc[vcpu] += c->cost[core_of[vcpu]];
		page[vcpu] = acc[vcpu] >> COST_SHIFT;
	} else {
		page[vcpu] += c->insns;
	}
	if (vcpu < HIST_VCPUS && !page[OWN_BASE + vcpu]) {
		uint64_t *h = page + HIST_BASE + vcpu * HIST_STRIDE +
			      c->mode * NR_CLASSES;

		for (i = 0; i < c->nr; i++)
			h[c->cls[i]] += c->cnt[i];
	}
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
		account(cur_vcpu, udata);
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
		account(cur_vcpu, udata);
}

static void cache_init(struct cache *c, uint32_t bytes, uint32_t ways)
{
	c->ways = ways;
	c->sets = bytes >> LINE_SHIFT;
	c->sets /= ways;
	c->tag = g_new0(uint64_t, (size_t)c->sets * ways);
}

/* Look @line up in @c and make it its set's most recent: true if it was there. */
static bool cache_access(struct cache *c, uint64_t line)
{
	uint64_t *set = c->tag + (size_t)(line & (c->sets - 1)) * c->ways;
	uint64_t key = line + 1, prev, cur;
	uint32_t i;

	if (set[0] == key)
		return true;
	prev = set[0];
	set[0] = key;
	for (i = 1; i < c->ways; i++) {
		cur = set[i];
		set[i] = prev;
		if (cur == key)
			return true;
		prev = cur;
	}
	return false;
}

/*
 * An L2 miss of @line: true if a stream of @s expected it (the line after
 * the stream's last, or the one after that), which then moves on; else it
 * starts a stream, in place of the oldest.
 */
static bool stream_access(struct streams *s, uint64_t line)
{
	unsigned int i;

	for (i = 0; i < STREAMS; i++) {
		if (s->next[i] == line || s->next[i] + 1 == line) {
			s->next[i] = line + 1;
			return true;
		}
	}
	s->next[s->victim] = line + 1;
	s->victim = (s->victim + 1) % STREAMS;
	return false;
}

/*
 * The cache model's part of an access to the physical line @line by the
 * vCPU @vcpu in @mode: the event it causes, or NR_EVENTS for an L1 hit.
 */
static enum mem_event cache_event(int vcpu, uint64_t line)
{
	if (cache_access(&l1[vcpu], line))
		return NR_EVENTS;
	if (cache_access(&l2[core_of[vcpu]], line))
		return EV_L2;
	return stream_access(&streams[vcpu], line) ? EV_STREAM : EV_DRAM;
}

/* Charge the vCPU @vcpu in @mode with the event @ev. */
static void account_event(int vcpu, int mode, enum mem_event ev)
{
	acc[vcpu] += ev_weight[core_of[vcpu]][mode][ev];
	page[vcpu] = acc[vcpu] >> COST_SHIFT;
	if (vcpu < HIST_VCPUS && !page[OWN_BASE + vcpu])
		page[EV_BASE + vcpu * EV_STRIDE + mode * NR_EVENTS + ev]++;
}

/*
 * After each load or store (memory=cache), in the vCPU thread: the vCPU is
 * the one whose block started last (tb_exec), since QEMU's vcpu_index is
 * the translating vCPU's; an access to I/O or before the vCPU is known is
 * not modelled. @udata is the instruction's mode.
 */
static void mem_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	enum mem_event ev;
	int vcpu = cur_vcpu;

	(void)vcpu_index;
	if (vcpu < 0 || vcpu >= nr_cores)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	ev = cache_event(vcpu, qemu_plugin_hwaddr_phys_addr(hw) >> LINE_SHIFT);
	if (ev != NR_EVENTS)
		account_event(vcpu, (int)(uintptr_t)udata, ev);
}

/* @m is @base with an optional condition code after it. */
static bool is_cond(const char *m, const char *base)
{
	static const char *const conds[] = {
		"", "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc",
		"hi", "ls", "ge", "lt", "gt", "le", "al",
	};
	size_t n = strlen(base);
	unsigned int i;

	if (strncmp(m, base, n))
		return false;
	for (i = 0; i < G_N_ELEMENTS(conds); i++)
		if (!strcmp(m + n, conds[i]))
			return true;
	return false;
}

static bool starts(const char *m, const char *prefix)
{
	return !strncmp(m, prefix, strlen(prefix));
}

/*
 * The class of an MCR/MCRR to CP15 (@ops: its operands): cache and TLB
 * maintenance (CRn c7, c8), a write of TTBR0/1 (CRn c2, CRm c0, opc2 0 or
 * 1; MCRR: CRm c2) or CONTEXTIDR (CRn c13, CRm c0, opc2 1), or another
 * system register.
 */
static enum insn_class cp15_class(const char *m, const char *ops)
{
	char f[6][16];
	int n;

	n = sscanf(ops, " %15[^, ] , %15[^, ] , %15[^, ] , %15[^, ] , %15[^, ] , %15[^, ]",
		   f[0], f[1], f[2], f[3], f[4], f[5]);
	if (n < 5 || strcmp(f[0], "p15"))
		return IC_SYSREG;
	if (starts(m, "mcrr"))
		return !strcmp(f[4], "c2") ? IC_CTXSW : IC_SYSREG;
	if (n < 6)
		return IC_SYSREG;
	if (!strcmp(f[3], "c7") || !strcmp(f[3], "c8"))
		return IC_MAINT;
	if (!strcmp(f[3], "c2") && !strcmp(f[4], "c0") &&
	    (!strcmp(f[5], "#0") || !strcmp(f[5], "#1")))
		return IC_CTXSW;
	if (!strcmp(f[3], "c13") && !strcmp(f[4], "c0") && !strcmp(f[5], "#1"))
		return IC_CTXSW;
	return IC_SYSREG;
}

/*
 * The class of an instruction from its disassembly (capstone's syntax, as
 * QEMU gives it): @m is the mnemonic, lower case, without a ".w"/".n"
 * width and without a data type (".f64", ".8"), @ops the operands.
 */
static enum insn_class classify(const char *m, const char *ops)
{
	bool to_pc = starts(ops, "pc,") || starts(ops, "pc ");

	if (is_cond(m, "wfi") || is_cond(m, "wfe"))
		return IC_SYSREG;
	if (starts(m, "ldrex") || starts(m, "strex") || starts(m, "clrex") ||
	    starts(m, "ldaex") || starts(m, "stlex"))
		return IC_EXCL;
	if (is_cond(m, "dmb") || is_cond(m, "dsb") || is_cond(m, "isb"))
		return IC_BARRIER;
	if (starts(m, "mcr"))
		return cp15_class(m, ops);
	if (starts(m, "mrc") || starts(m, "mrs") || starts(m, "msr") ||
	    starts(m, "cps") || is_cond(m, "svc") || is_cond(m, "smc") ||
	    is_cond(m, "hvc") || starts(m, "bkpt") || starts(m, "udf") ||
	    starts(m, "setend") || is_cond(m, "sev") || starts(m, "vmrs") ||
	    starts(m, "vmsr"))
		return IC_SYSREG;
	if (is_cond(m, "eret") || starts(m, "rfe") ||
	    ((starts(m, "subs") || starts(m, "movs")) && to_pc) ||
	    (starts(m, "ldm") && strchr(ops, '^') && strstr(ops, "pc")))
		return IC_ERET;
	if (is_cond(m, "b") || is_cond(m, "bl") || is_cond(m, "blx") ||
	    is_cond(m, "bx") || is_cond(m, "bxj") || !strcmp(m, "cbz") ||
	    !strcmp(m, "cbnz") || starts(m, "tbb") || starts(m, "tbh"))
		return IC_BRANCH;
	if (starts(m, "ldm") || is_cond(m, "pop") || starts(m, "vldm") ||
	    is_cond(m, "vpop"))
		return IC_LDM;
	if (starts(m, "stm") || is_cond(m, "push") || starts(m, "vstm") ||
	    is_cond(m, "vpush"))
		return IC_STM;
	if (starts(m, "ldr") || starts(m, "vldr") || starts(m, "vld"))
		return IC_LOAD;
	if (starts(m, "str") || starts(m, "vstr") || starts(m, "vst"))
		return IC_STORE;
	if (starts(m, "sdiv") || starts(m, "udiv") || starts(m, "vdiv") ||
	    starts(m, "vsqrt"))
		return IC_DIV;
	if (starts(m, "mul") || starts(m, "mla") || starts(m, "mls") ||
	    starts(m, "umul") || starts(m, "umla") || starts(m, "umaal") ||
	    starts(m, "smul") || starts(m, "smla") || starts(m, "smls") ||
	    starts(m, "smmu") || starts(m, "smml") || starts(m, "smua") ||
	    starts(m, "smus"))
		return IC_MUL;
	if (m[0] == 'v')
		return IC_SIMD;
	/* Any other write of the PC (mov pc, lr; add pc, ...) branches. */
	if (to_pc)
		return IC_BRANCH;
	return IC_OTHER;
}

/* Split @dis into its mnemonic (lower case, no width or type) and class. */
static enum insn_class class_of_disas(const char *dis, char *m, size_t size)
{
	const char *p = dis, *ops;
	size_t n = 0;
	char *dot;

	while (*p && isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p) && n + 1 < size)
		m[n++] = (char)tolower((unsigned char)*p++);
	m[n] = '\0';
	while (*p && !isspace((unsigned char)*p))
		p++;
	ops = p;
	while (*ops && isspace((unsigned char)*ops))
		ops++;
	dot = strchr(m, '.');
	if (dot)
		*dot = '\0';
	return classify(m, ops);
}

static guint cost_hash(gconstpointer key)
{
	const unsigned char *b = key;
	guint h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(struct tb_cost); i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

static gboolean cost_equal(gconstpointer a, gconstpointer b)
{
	return !memcmp(a, b, sizeof(struct tb_cost));
}

/* The interned cost of a block of @counts in @mode. */
static const struct tb_cost *intern_cost(const uint32_t *counts, int mode)
{
	struct tb_cost c, *found;
	unsigned int i, core;
	uint64_t sum;

	memset(&c, 0, sizeof(c));
	c.mode = (uint8_t)mode;
	for (i = 0; i < NR_CLASSES; i++) {
		if (!counts[i])
			continue;
		if (i != IC_ENTRY)
			c.insns += counts[i];
		c.cls[c.nr] = (uint8_t)i;
		c.cnt[c.nr++] = counts[i];
	}
	for (core = 0; core < NR_CORES; core++) {
		sum = 0;
		for (i = 0; i < NR_CLASSES; i++)
			sum += (uint64_t)counts[i] * weight[core][mode][i];
		c.cost[core] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	}
	found = g_hash_table_lookup(costs, &c);
	if (!found) {
		found = g_memdup2(&c, sizeof(c));
		g_hash_table_add(costs, found);
	}
	return found;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint32_t counts[NR_CLASSES] = { 0 };
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	int mode = vaddr >= kernel_base ? MODE_KERNEL : MODE_USER;
	const struct tb_cost *c;
	char m[32];

	(void)id;
	g_mutex_lock(&trans_lock);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		char *dis = qemu_plugin_insn_disas(insn);
		enum insn_class cls = class_of_disas(dis ? dis : "", m, sizeof(m));

		counts[cls]++;
		if (memory_cache && (cls == IC_LOAD || cls == IC_STORE || cls == IC_LDM ||
				     cls == IC_STM || cls == IC_EXCL))
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access,
							 QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW,
							 (void *)(uintptr_t)mode);
		if (mnemonics) {
			/* One entry a mnemonic and class: MCR's depends on its operands. */
			char *key = g_strdup_printf("%s %s", m, class_names[cls]);
			uint64_t *n = g_hash_table_lookup(mnemonics, key);

			if (!n) {
				n = g_new0(uint64_t, 1);
				g_hash_table_insert(mnemonics, key, n);
			} else {
				g_free(key);
			}
			(*n)++;
		}
		g_free(dis);
	}
	/* A block at an exception vector: the exception's entry. */
	if (vaddr >= 0xffff0000 && vaddr < 0xffff0020)
		counts[IC_ENTRY]++;
	c = intern_cost(counts, mode);
	g_mutex_unlock(&trans_lock);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_R_REGS,
					     (void *)c);
}

static void write_classes(qemu_plugin_id_t id, void *p)
{
	GHashTableIter it;
	gpointer key, value;
	FILE *f;

	(void)id;
	(void)p;
	f = fopen(classes_path, "w");
	if (!f) {
		pr_err("%s: %s\n", classes_path, strerror(errno));
		return;
	}
	fprintf(f, "# mnemonic class translations\n");
	g_hash_table_iter_init(&it, mnemonics);
	while (g_hash_table_iter_next(&it, &key, &value))
		fprintf(f, "%s %" PRIu64 "\n", (const char *)key,
			*(const uint64_t *)value);
	if (fclose(f))
		pr_err("%s: %s\n", classes_path, strerror(errno));
}

static int lookup(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/*
 * Read the weights file @path: every core, mode and class must be given a
 * weight (a missing one would cost nothing, silently), and with
 * memory=cache every memory event too. Return 0 or -1.
 */
static int read_weights(const char *path)
{
	bool set[NR_CORES][NR_MODES][NR_CLASSES] = { { { false } } };
	bool ev_set[NR_CORES][NR_MODES][NR_EVENTS] = { { { false } } };
	char line[256], core[16], mode[16], cls[16], cyc[32];
	int lineno = 0, c, md, k, e, m0, m1;
	double v;
	char *end;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		pr_err("weights=%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *h = strchr(line, '#');

		lineno++;
		if (h)
			*h = '\0';
		if (sscanf(line, " %15s", core) != 1)
			continue;
		if (sscanf(line, " %15s %15s %15s %31s %1s", core, mode, cls, cyc, line) != 4)
			goto bad;
		c = lookup(core_names, NR_CORES, core);
		md = strcmp(mode, "any") ? lookup(mode_names, NR_MODES, mode) : NR_MODES;
		k = lookup(class_names, NR_CLASSES, cls);
		e = lookup(event_names, NR_EVENTS, cls);
		errno = 0;
		v = strtod(cyc, &end);
		if (c < 0 || md < 0 || (k < 0 && e < 0) || errno || *end ||
		    !(v >= 0 && v < 1e6))
			goto bad;
		m0 = md == NR_MODES ? 0 : md;
		m1 = md == NR_MODES ? NR_MODES - 1 : md;
		for (md = m0; md <= m1; md++) {
			if (k >= 0) {
				weight[c][md][k] = (uint32_t)lround(v * COST_UNIT);
				set[c][md][k] = true;
			} else {
				ev_weight[c][md][e] = (uint32_t)lround(v * COST_UNIT);
				ev_set[c][md][e] = true;
			}
		}
	}
	if (ferror(f)) {
		pr_err("weights=%s: %s\n", path, strerror(errno));
		fclose(f);
		return -1;
	}
	fclose(f);
	for (c = 0; c < NR_CORES; c++)
		for (md = 0; md < NR_MODES; md++)
			for (k = 0; k < NR_CLASSES; k++)
				if (!set[c][md][k]) {
					pr_err("weights=%s: no weight for %s %s %s\n", path,
					       core_names[c], mode_names[md], class_names[k]);
					return -1;
				}
	for (c = 0; c < NR_CORES && memory_cache; c++)
		for (md = 0; md < NR_MODES; md++)
			for (e = 0; e < NR_EVENTS; e++)
				if (!ev_set[c][md][e]) {
					pr_err("weights=%s: no weight for %s %s %s (memory=cache needs the memory events' weights)\n",
					       path, core_names[c], mode_names[md], event_names[e]);
					return -1;
				}
	return 0;
bad:
	pr_err("weights=%s:%d: not \"CORE MODE CLASS CYCLES\" (CORE a7 or a15, MODE user, kernel or any, CLASS one of the plugin's classes or memory events, CYCLES a number from 0)\n",
	       path, lineno);
	fclose(f);
	return -1;
}

/* cores=a7:a7:...: each vCPU's core type by hardware ID. Return the count or -1. */
static int read_cores(const char *list)
{
	char *copy = g_strdup(list), *save = NULL, *tok;
	int n = 0, c;

	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		c = lookup(core_names, NR_CORES, tok);
		if (c < 0 || n == MAX_VCPUS) {
			pr_err("cores=%s: %s is not a7 or a15 (or more than %d vCPUs)\n",
			       list, tok, MAX_VCPUS);
			g_free(copy);
			return -1;
		}
		core_of[n++] = (uint8_t)c;
	}
	g_free(copy);
	return n;
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
	const char *ram = NULL, *weights = NULL, *cores = NULL;
	unsigned long long kbase;
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
		} else if (!strcmp(argv[i], "cost=insns") || !strcmp(argv[i], "cost=cycles")) {
			cost_cycles = !strcmp(argv[i], "cost=cycles");
		} else if (!strncmp(argv[i], "weights=", 8)) {
			weights = argv[i] + 8;
		} else if (!strncmp(argv[i], "cores=", 6)) {
			cores = argv[i] + 6;
		} else if (!strncmp(argv[i], "kernel=", 7)) {
			errno = 0;
			kbase = strtoull(argv[i] + 7, &end, 0);
			if (errno || *end || !kbase || kbase > UINT32_MAX) {
				pr_err("%s: not an address of the 32-bit guest\n", argv[i]);
				return -1;
			}
			kernel_base = kbase;
		} else if (!strcmp(argv[i], "memory=none") || !strcmp(argv[i], "memory=cache")) {
			memory_cache = !strcmp(argv[i], "memory=cache");
		} else if (!strncmp(argv[i], "classes=", 8)) {
			classes_path = g_strdup(argv[i] + 8);
		} else {
			pr_err("unknown argument %s (ram=PATH,offset=BYTES[,cost=insns|cycles,weights=PATH,cores=LIST,memory=none|cache,kernel=ADDR,classes=PATH])\n",
			       argv[i]);
			return -1;
		}
	}
	if (!ram || offset < 0) {
		pr_err("needs ram=PATH (the guest RAM's backing file) and offset=BYTES (a multiple of %d)\n",
		       PAGE_SIZE_BYTES);
		return -1;
	}
	if (cost_cycles && (!weights || !cores)) {
		pr_err("cost=cycles needs weights=PATH (the cost model's weights) and cores=LIST (each vCPU's core type)\n");
		return -1;
	}
	if (!info->system_emulation || info->system.max_vcpus > MAX_VCPUS) {
		pr_err("system emulation of at most %d vCPUs only\n", MAX_VCPUS);
		return -1;
	}
	if (memory_cache && !cost_cycles) {
		pr_err("memory=cache needs cost=cycles (its events cost cycles)\n");
		return -1;
	}
	if (weights && read_weights(weights))
		return -1;
	if (cores) {
		nr_cores = read_cores(cores);
		if (nr_cores < 0)
			return -1;
	}
	if (cost_cycles && nr_cores < (int)info->system.max_vcpus) {
		pr_err("cores=%s: %d core types for %d vCPUs\n", cores, nr_cores,
		       info->system.max_vcpus);
		return -1;
	}
	if (memory_cache) {
		for (i = 0; i < nr_cores; i++)
			cache_init(&l1[i], geometry[core_of[i]].l1_bytes,
				   geometry[core_of[i]].l1_ways);
		for (i = 0; i < NR_CORES; i++)
			cache_init(&l2[i], geometry[i].l2_bytes, geometry[i].l2_ways);
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
	page[FMT_WORD] = FMT_MAGIC | FMT_HIST | FMT_OWN | (cost_cycles ? FMT_CYCLES : 0) |
			 (uint64_t)NR_CLASSES << FMT_CLASSES_SHIFT |
			 (uint64_t)HIST_VCPUS << FMT_HIST_VCPUS_SHIFT;
	if (memory_cache)
		page[FMT_WORD] |= FMT_MEM | (uint64_t)NR_EVENTS << FMT_EVENTS_SHIFT;
	costs = g_hash_table_new(cost_hash, cost_equal);
	if (classes_path) {
		mnemonics = g_hash_table_new(g_str_hash, g_str_equal);
		qemu_plugin_register_atexit_cb(id, write_classes, NULL);
	}
	regbuf = g_byte_array_sized_new(16);
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
