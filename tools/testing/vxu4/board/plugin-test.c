// SPDX-License-Identifier: GPL-2.0
/*
 * plugin-test - the QEMU plugin's cost model on the host, without QEMU:
 * its instruction classes on disassembly as QEMU's capstone gives it, its
 * weights file and cores list (good and broken), and what a block adds
 * to a vCPU's count and class counts in each cost mode. The plugin's
 * source is included whole, with QEMU's plugin API stubbed: the blocks
 * are made up here. Prints one KTAP document.
 *
 * Usage: plugin-test WEIGHTS TMPDIR
 *	WEIGHTS: the project's weights file (tools/testing/vxu4/board/cycle-weights)
 *	TMPDIR:  a folder for the broken weights files it writes
 */

#include "insn-count-plugin.c"

/* QEMU's plugin API, as far as the plugin uses it, on made-up blocks. */

struct qemu_plugin_insn {
	const char *dis;
};

struct qemu_plugin_tb {
	uint64_t vaddr;
	size_t n;
	struct qemu_plugin_insn insns[8];
	void *udata;
};

struct qemu_plugin_register;

int qemu_plugin_read_register(struct qemu_plugin_register *handle, GByteArray *buf)
{
	(void)handle;
	(void)buf;
	return -1;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb)
{
	return tb->vaddr;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx)
{
	return (struct qemu_plugin_insn *)&tb->insns[idx];
}

char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *insn)
{
	return g_strdup(insn->dis);
}

void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)cb;
	(void)flags;
	tb->udata = userdata;
}

/* Memory: a made-up access's physical address is its virtual one. */
struct qemu_plugin_hwaddr {
	uint64_t pa;
};

static struct qemu_plugin_hwaddr test_hwaddr;
static int nr_mem_cbs;

void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw, void *userdata)
{
	(void)insn;
	(void)cb;
	(void)flags;
	(void)rw;
	(void)userdata;
	nr_mem_cbs++;
}

struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	(void)info;
	test_hwaddr.pa = vaddr;
	return &test_hwaddr;
}

bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *haddr)
{
	(void)haddr;
	return false;
}

uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr)
{
	return haddr->pa;
}

GArray *qemu_plugin_get_registers(void)
{
	return g_array_new(FALSE, FALSE, sizeof(qemu_plugin_reg_descriptor));
}

void qemu_plugin_uninstall(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb)
{
	(void)id;
	(void)cb;
}

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb)
{
	(void)id;
	(void)cb;
}

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb)
{
	(void)id;
	(void)cb;
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata)
{
	(void)id;
	(void)cb;
	(void)userdata;
}

/* KTAP, held until the end so that the plan comes first. */
static char results[32768];
static size_t results_len;
static int nr_tests, nr_failed;

static void result(bool ok, const char *fmt, ...)
{
	size_t room = sizeof(results) - results_len - 1;
	va_list ap;
	int n;

	nr_tests++;
	nr_failed += !ok;
	n = snprintf(results + results_len, room, "%sok %d ", ok ? "" : "not ", nr_tests);
	results_len += (size_t)n < room ? (size_t)n : room;
	room = sizeof(results) - results_len - 1;
	va_start(ap, fmt);
	n = vsnprintf(results + results_len, room, fmt, ap);
	va_end(ap);
	results_len += (size_t)n < room ? (size_t)n : room;
	results[results_len++] = '\n';
}

/* Disassembly as QEMU 10.0's capstone prints it, and the class expected. */
static const struct {
	const char *dis;
	enum insn_class cls;
} cases[] = {
	{ "add r0, r1, r2", IC_OTHER },
	{ "movs r0, #1", IC_OTHER },
	{ "cmp r3, #0", IC_OTHER },
	{ "bic r0, r0, #3", IC_OTHER },
	{ "bfi r0, r1, #0, #4", IC_OTHER },
	{ "ldr r3, [r2, #4]", IC_LOAD },
	{ "ldrb.w r3, [r2], #1", IC_LOAD },
	{ "ldrdeq r0, r1, [r2]", IC_LOAD },
	{ "vldr d0, [r0]", IC_LOAD },
	{ "vld1.8 {d0, d1}, [r1]!", IC_LOAD },
	{ "ldr pc, [sp], #4", IC_LOAD },
	{ "str r0, [sp, #-4]!", IC_STORE },
	{ "strh r1, [r0]", IC_STORE },
	{ "vst1.64 {d16, d17}, [r0:128]!", IC_STORE },
	{ "ldm r0, {r1, r2, r3}", IC_LDM },
	{ "pop {r4, r5, pc}", IC_LDM },
	{ "pop.w {r4, r5, r6, r7, r8, pc}", IC_LDM },
	{ "vpop {d8, d9}", IC_LDM },
	{ "push {r4, lr}", IC_STM },
	{ "stmdb sp!, {r0, r1}", IC_STM },
	{ "b #0xc0101234", IC_BRANCH },
	{ "bne #0x1000", IC_BRANCH },
	{ "bl #0xc0200000", IC_BRANCH },
	{ "blx r3", IC_BRANCH },
	{ "bx lr", IC_BRANCH },
	{ "cbz r0, #0x10", IC_BRANCH },
	{ "tbb [pc, r3]", IC_BRANCH },
	{ "mov pc, lr", IC_BRANCH },
	{ "mul r0, r1, r2", IC_MUL },
	{ "umull r0, r1, r2, r3", IC_MUL },
	{ "smlal r0, r1, r2, r3", IC_MUL },
	{ "sdiv r0, r1, r2", IC_DIV },
	{ "vdiv.f64 d0, d1, d2", IC_DIV },
	{ "vadd.f64 d0, d1, d2", IC_SIMD },
	{ "vmov.i32 q8, #0", IC_SIMD },
	{ "dmb ish", IC_BARRIER },
	{ "dsb sy", IC_BARRIER },
	{ "isb sy", IC_BARRIER },
	{ "ldrex r2, [r0]", IC_EXCL },
	{ "strexeq r3, r2, [r0]", IC_EXCL },
	{ "mrc p15, #0, r0, c13, c0, #4", IC_SYSREG },
	{ "mcr p15, #0, r0, c13, c0, #4", IC_SYSREG },
	{ "mcr p15, #0, r0, c7, c5, #0", IC_MAINT },
	{ "mcr p15, #0, r0, c8, c7, #0", IC_MAINT },
	{ "mcr p15, #0, r0, c2, c0, #0", IC_CTXSW },
	{ "mcr p15, #0, r1, c13, c0, #1", IC_CTXSW },
	{ "mcrr p15, #0, r0, r1, c2", IC_CTXSW },
	{ "mcr p14, #0, r0, c0, c5, #0", IC_SYSREG },
	{ "cpsid i", IC_SYSREG },
	{ "svc #0", IC_SYSREG },
	{ "wfi", IC_SYSREG },
	{ "msr cpsr_c, r0", IC_SYSREG },
	{ "vmrs APSR_nzcv, fpscr", IC_SYSREG },
	{ "subs pc, lr, #4", IC_ERET },
	{ "movs pc, lr", IC_ERET },
	{ "ldm sp, {r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, sp, lr, pc} ^",
	  IC_ERET },
	{ "rfeia sp!", IC_ERET },
};

static void test_classes(void)
{
	char m[32];
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		enum insn_class got = class_of_disas(cases[i].dis, m, sizeof(m));

		result(got == cases[i].cls, "class of \"%s\" is %s (got %s)", cases[i].dis,
		       class_names[cases[i].cls], class_names[got]);
	}
}

/* Write @text to @dir/@name; its path. */
static char *write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);

	if (!g_file_set_contents(path, text, -1, NULL)) {
		fprintf(stderr, "plugin-test: cannot write %s\n", path);
		exit(1);
	}
	return path;
}

static void test_weights(const char *weights, const char *tmp)
{
	GString *all = g_string_new("");
	char *path;
	int c, m, k;

	result(read_weights(weights) == 0, "the project's weights file %s loads", weights);
	result(weight[CORE_A15][MODE_KERNEL][IC_LOAD] > 0 &&
	       weight[CORE_A7][MODE_USER][IC_OTHER] > 0,
	       "every weight of the project's file is above 0");

	for (c = 0; c < NR_CORES; c++)
		for (m = 0; m < NR_MODES; m++)
			for (k = 0; k < NR_CLASSES; k++)
				if (!(c == CORE_A7 && m == MODE_KERNEL && k == IC_CTXSW))
					g_string_append_printf(all, "%s %s %s 1.5\n", core_names[c],
							       mode_names[m], class_names[k]);
	path = write_file(tmp, "missing", all->str);
	result(read_weights(path) == -1, "a weights file without a7 kernel ctxsw is refused");
	g_free(path);
	path = write_file(tmp, "bad-class", "a15 any lod 1\n");
	result(read_weights(path) == -1, "a weights file naming no class is refused");
	g_free(path);
	path = write_file(tmp, "negative", "a15 any load -1\n");
	result(read_weights(path) == -1, "a negative weight is refused");
	g_free(path);
	path = write_file(tmp, "extra", "a15 any load 1 2\n");
	result(read_weights(path) == -1, "a line with a fifth field is refused");
	g_free(path);
	path = g_build_filename(tmp, "absent", NULL);
	result(read_weights(path) == -1, "a missing weights file is refused");
	g_free(path);
	g_string_free(all, TRUE);
	/* Back to the project's weights for the blocks' tests. */
	read_weights(weights);
}

static void test_cores(void)
{
	result(read_cores("a7:a7:a7:a7:a15:a15:a15:a15") == 8 && core_of[3] == CORE_A7 &&
	       core_of[4] == CORE_A15, "cores= of the XU4 gives cpu3 an A7 and cpu4 an A15");
	result(read_cores("a7:a53") == -1, "cores= naming another core is refused");
}

static uint64_t test_page[PAGE_SIZE_BYTES / 8];

/* Translate @tb as QEMU would, then run it on @vcpu @times times. */
static const struct tb_cost *run_block(struct qemu_plugin_tb *tb, int vcpu, int times)
{
	tb_trans(0, tb);
	while (times--)
		account(vcpu, tb->udata);
	return tb->udata;
}

static void test_blocks(void)
{
	struct qemu_plugin_tb user = {
		.vaddr = 0x10000, .n = 4,
		.insns = { { "ldr r0, [r1]" }, { "ldr r2, [r1, #4]" }, { "add r0, r0, r2" },
			   { "bne #0x10000" } },
	};
	struct qemu_plugin_tb vector = {
		.vaddr = 0xffff0008, .n = 1, .insns = { { "ldr pc, [pc, #0x410]" } },
	};
	const struct tb_cost *c;
	uint64_t *h5 = test_page + HIST_BASE + 5 * HIST_STRIDE;
	uint64_t want;

	page = test_page;
	costs = g_hash_table_new(cost_hash, cost_equal);
	read_cores("a7:a7:a7:a7:a15:a15:a15:a15");

	cost_cycles = false;
	c = run_block(&user, 5, 3);
	result(c->insns == 4 && c->mode == MODE_USER,
	       "a user block of 4 instructions is user mode");
	result(test_page[5] == 12, "cost=insns: 3 runs of it count 12 (got %" PRIu64 ")",
	       test_page[5]);
	result(h5[IC_LOAD] == 6 && h5[IC_OTHER] == 3 && h5[IC_BRANCH] == 3 &&
	       h5[NR_CLASSES + IC_LOAD] == 0,
	       "its class counts: 6 loads, 3 other, 3 branches, none in kernel mode");
	result(run_block(&user, 5, 0) == c, "the same classes share one cost");

	c = run_block(&vector, 6, 1);
	result(c->mode == MODE_KERNEL && c->insns == 1,
	       "a block at the vectors is kernel mode, 1 instruction");
	result(test_page[HIST_BASE + 6 * HIST_STRIDE + NR_CLASSES + IC_ENTRY] == 1 &&
	       test_page[HIST_BASE + 6 * HIST_STRIDE + NR_CLASSES + IC_LOAD] == 1,
	       "it counts an exception entry and a load");

	memset(test_page, 0, sizeof(test_page));
	cost_cycles = true;
	c = run_block(&user, 5, 256);
	want = ((uint64_t)256 * (2 * weight[CORE_A15][MODE_USER][IC_LOAD] +
				 weight[CORE_A15][MODE_USER][IC_OTHER] +
				 weight[CORE_A15][MODE_USER][IC_BRANCH])) >> COST_SHIFT;
	result(test_page[5] == want && want > 0,
	       "cost=cycles: 256 runs on an A15 cost 256 times its A15 weights (%"
	       PRIu64 " cycles, got %" PRIu64 ")",
	       want, test_page[5]);
	run_block(&user, 1, 256);
	want = ((uint64_t)256 * (2 * weight[CORE_A7][MODE_USER][IC_LOAD] +
				 weight[CORE_A7][MODE_USER][IC_OTHER] +
				 weight[CORE_A7][MODE_USER][IC_BRANCH])) >> COST_SHIFT;
	result(test_page[1] == want && test_page[1] != test_page[5],
	       "on an A7 the same block costs its A7 weights (%" PRIu64 " cycles, got %" PRIu64 ")",
	       want, test_page[1]);

	/* The guest's own code (its word set): charged, not in the classes. */
	memset(test_page, 0, sizeof(test_page));
	memset(acc, 0, sizeof(acc));
	run_block(&user, 5, 256);
	want = test_page[5];
	test_page[OWN_BASE + 5] = 1;
	run_block(&user, 5, 256);
	test_page[OWN_BASE + 5] = 0;
	run_block(&user, 5, 1);
	result(test_page[5] > 2 * want && h5[IC_LOAD] == 2 * 257 && h5[IC_BRANCH] == 257,
	       "with vCPU 5's own word set its blocks cost cycles but no classes (%" PRIu64
	       " cycles, %" PRIu64 " loads)", test_page[5], h5[IC_LOAD]);
}

/* Touch @bytes from @base, a line at a time, in user mode (on cur_vcpu). */
static void walk(uint64_t base, uint64_t bytes)
{
	uint64_t a;

	for (a = base; a < base + bytes; a += 64)
		mem_access(0, 0, a, (void *)(uintptr_t)MODE_USER);
}

/* The user-mode count of event @ev of @vcpu in the page. */
static uint64_t events(int vcpu, enum mem_event ev)
{
	return test_page[EV_BASE + vcpu * EV_STRIDE + MODE_USER * NR_EVENTS + ev];
}

static void reset_caches(void)
{
	int i;

	for (i = 0; i < nr_cores; i++) {
		memset(l1[i].tag, 0, (size_t)l1[i].sets * l1[i].ways * sizeof(uint64_t));
		memset(&streams[i], 0, sizeof(streams[i]));
	}
	for (i = 0; i < NR_CORES; i++)
		memset(l2[i].tag, 0, (size_t)l2[i].sets * l2[i].ways * sizeof(uint64_t));
	memset(test_page, 0, sizeof(test_page));
	memset(acc, 0, sizeof(acc));
}

static void test_memory(const char *weights, const char *tmp)
{
	struct qemu_plugin_tb block = {
		.vaddr = 0x10000, .n = 5,
		.insns = { { "ldr r0, [r1]" }, { "push {r4, lr}" }, { "add r0, r0, r2" },
			   { "vst1.64 {d16, d17}, [r0:128]!" }, { "ldrex r2, [r0]" } },
	};
	uint64_t x = 1, want;
	char *path;
	int i, n;

	memory_cache = false;
	path = write_file(tmp, "classes-only", "");
	{
		GString *all = g_string_new("");
		int c, m, k;

		for (c = 0; c < NR_CORES; c++)
			for (m = 0; m < NR_MODES; m++)
				for (k = 0; k < NR_CLASSES; k++)
					g_string_append_printf(all, "%s %s %s 1\n", core_names[c],
							       mode_names[m], class_names[k]);
		g_free(path);
		path = write_file(tmp, "classes-only", all->str);
		g_string_free(all, TRUE);
	}
	result(read_weights(path) == 0, "without memory=cache a file without memory events loads");
	memory_cache = true;
	result(read_weights(path) == -1,
	       "with memory=cache a file without memory events is refused");
	g_free(path);
	result(read_weights(weights) == 0 && ev_weight[CORE_A15][MODE_KERNEL][EV_DRAM] >
	       ev_weight[CORE_A15][MODE_KERNEL][EV_L2],
	       "the project's file has the memory events, a DRAM miss dearer than an L2 hit");

	nr_cores = read_cores("a7:a7:a7:a7:a15:a15:a15:a15");
	for (i = 0; i < nr_cores; i++)
		cache_init(&l1[i], geometry[core_of[i]].l1_bytes, geometry[core_of[i]].l1_ways);
	for (i = 0; i < NR_CORES; i++)
		cache_init(&l2[i], geometry[i].l2_bytes, geometry[i].l2_ways);
	result(l1[4].sets == 256 && l1[0].sets == 128 && l2[CORE_A15].sets == 2048 &&
	       l2[CORE_A7].sets == 1024,
	       "sets: L1 256 (A15, 2-way) and 128 (A7, 4-way), L2 2048 (A15) and 1024 (A7)");

	nr_mem_cbs = 0;
	tb_trans(0, &block);
	result(nr_mem_cbs == 4,
	       "a block's load, push, vst1 and ldrex get a memory callback, its add none (got %d)",
	       nr_mem_cbs);

	page = test_page;
	cost_cycles = true;
	reset_caches();
	cur_vcpu = 4;
	walk(0x100000, 32768);
	n = (int)(events(4, EV_L2) + events(4, EV_DRAM) + events(4, EV_STREAM));
	walk(0x100000, 32768);
	result(n == 512 && events(4, EV_L2) + events(4, EV_DRAM) + events(4, EV_STREAM) == 512,
	       "32 KiB twice on an A15: 512 misses, then all L1 hits");
	result(events(4, EV_DRAM) == 1 && events(4, EV_STREAM) == 511,
	       "a cold sequential walk: one DRAM miss, then the stream (got %" PRIu64 " and %"
	       PRIu64 ")",
	       events(4, EV_DRAM), events(4, EV_STREAM));
	want = (ev_weight[CORE_A15][MODE_USER][EV_DRAM] +
		511 * (uint64_t)ev_weight[CORE_A15][MODE_USER][EV_STREAM]) >> COST_SHIFT;
	result(test_page[4] == want,
	       "they cost 1 DRAM and 511 stream weights (%" PRIu64 " cycles, got %" PRIu64 ")",
	       want, test_page[4]);

	reset_caches();
	walk(0x100000, 65536);
	walk(0x100000, 65536);
	result(events(4, EV_L2) == 1024,
	       "64 KiB twice on an A15: the second pass misses the L1 (LRU), hits the L2 (got %"
	       PRIu64 ")",
	       events(4, EV_L2));

	reset_caches();
	cur_vcpu = 0;
	walk(0x100000, 1 << 20);
	walk(0x100000, 1 << 20);
	result(events(0, EV_L2) == 0 && events(0, EV_DRAM) == 2 && events(0, EV_STREAM) == 32766,
	       "1 MiB twice on an A7 (512 KiB L2): no L2 hit, each pass a DRAM miss then the stream (got %"
	       PRIu64 ", %" PRIu64 ", %" PRIu64 ")",
	       events(0, EV_L2), events(0, EV_DRAM), events(0, EV_STREAM));
	cur_vcpu = 5;
	walk(0x100000, 1 << 20);
	walk(0x100000, 1 << 20);
	result(events(5, EV_L2) == 16384,
	       "1 MiB twice on an A15 (2 MiB L2): the second pass all L2 hits (got %" PRIu64 ")",
	       events(5, EV_L2));

	reset_caches();
	cur_vcpu = 6;
	for (i = 0; i < 2 * 262144; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (i == 262144)
			memset(test_page + EV_BASE, 0, EV_STRIDE * HIST_VCPUS * sizeof(uint64_t));
		mem_access(0, 0, 0x1000000 + ((x >> 33) % 262144) * 64,
			   (void *)(uintptr_t)MODE_USER);
	}
	result(events(6, EV_DRAM) > 262144 * 8 / 10 && events(6, EV_L2) > 262144 / 20 &&
	       events(6, EV_L2) < 262144 / 5,
	       "random lines of 16 MiB on an A15: over 80%% DRAM, about an eighth L2 (got %" PRIu64
	       " DRAM, %" PRIu64 " L2 of 262144)", events(6, EV_DRAM), events(6, EV_L2));

	cur_vcpu = -1;
	reset_caches();
	walk(0x100000, 4096);
	result(test_page[4] == 0 && events(4, EV_DRAM) + events(4, EV_STREAM) == 0,
	       "before the running vCPU is known nothing is charged");
	memory_cache = false;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: plugin-test WEIGHTS TMPDIR\n");
		return 2;
	}
	test_classes();
	test_weights(argv[1], argv[2]);
	test_cores();
	test_blocks();
	test_memory(argv[1], argv[2]);
	printf("KTAP version 1\n1..%d\n%s", nr_tests, results);
	printf("# Totals: pass:%d fail:%d skip:0 todo:0 total:%d\n", nr_tests - nr_failed,
	       nr_failed, nr_tests);
	return nr_failed ? 1 : 0;
}
