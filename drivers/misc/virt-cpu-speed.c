// SPDX-License-Identifier: GPL-2.0
/*
 * CPU speed of a virtual big.LITTLE board (time dilation) on QEMU icount
 *
 * On the board a CPU of capacity c (out of 1024) at rate f of a cluster
 * whose top rate is fmax does work at
 *
 *	speed = c * f / fmax	(capacity units, out of 1024)
 *
 * This driver makes the vCPUs of a virtual board do so: a board whose CPU
 * nodes are all clocked by emulated cluster clocks (their "clocks" is a
 * linux,virt-cluster-clock, drivers/clk/clk-virt-cluster.c); elsewhere it
 * does nothing. No DT node of its own: the emulation is no hardware, and
 * its settings are module parameters. It is written for
 * QEMU TCG with instruction counting ("-icount shift=N,sleep=off"): guest
 * time is then a count of the instructions executed, whatever the host's
 * load, and the vCPUs run round-robin on one host thread. How much a CPU
 * did while it ran (its progress) is then:
 *
 *  - where the emulator counts each vCPU's instructions into a page that
 *    the DT reserves ("linux,virt-insn-counters"; for QEMU, a TCG
 *    plugin), that count: exact;
 *  - elsewhere an estimate: QEMU gives each vCPU that is not halted an
 *    equal budget of instructions per round, so that while k vCPUs run
 *    each executes about 1/k of them. The driver keeps that fair share as
 *    a clock, advanced by dt / k at every change of k (the virtual time of
 *    weighted fair queueing):
 *
 *	progress = integral of dt / k over the CPU's run time
 *
 *    QEMU's rounds are not that fair: work on 2 to 8 CPUs at once comes
 *    out a few percent off (Documentation/admin-guide/odroid-eas.rst).
 *
 * Where the emulator counts cycles instead, under a cost model that gives
 * each instruction class its cycles on the vCPU's core type (the page's
 * format word says so), a CPU whose cluster clock runs at rate f does f
 * cycles a second, whatever its capacity: work of C cycles should have
 * taken C / f, and the reference below plays no part. The two core types
 * then run a given piece of work at the ratio its instructions give, not
 * at the ratio of their capacities.
 *
 * Guest time may run slower than the emulator's instruction clock: where
 * the DT gives the arch timer a "clock-frequency" K times the rate at
 * which the emulator's counter ticks (CNTFRQ, which QEMU sets to the
 * rate it counts at: K times the instructions a guest ns holds at
 * "-icount shift=0"), Linux converts the counter's ticks to K times
 * fewer ns, and a lone vCPU executes K instructions per ns of guest time:
 * the guest's time scale, K. An instruction count is then K times the
 * time its instructions took a lone vCPU, in ns.
 *
 * The reference, a CPU of capacity 1024 at its top rate, does work at
 * "ref_permille" / 1000 of the rate of a vCPU that runs alone. That is
 * below the 1/8 that each of 8 busy vCPUs gets, so no CPU falls behind
 * its speed; a CPU that would is counted in "shortfall_ns". Work done at
 * speed s should have taken
 *
 *	progress * 1000 / ref_permille * 1024 / s
 *
 * and the CPU owes the difference to the time it did take. The task that
 * runs pays it, in its own context, by waiting in WFI (a halted vCPU
 * takes no share): the wait is that task's run time, as a slower clock's
 * cycles would be, so runtime and PELT util grow as on the board and util
 * is invariant across clusters and OPPs. The loop is closed: what was
 * paid is measured, over or under the debt. A debt is the task's, not the
 * CPU's: a user task that leaves a CPU owing (preempted, or blocked in the
 * kernel after its last payment) takes its debt along in a small table,
 * and pays it when it runs again, on whichever CPU; another task never
 * pays it. Where the counts are cycles, kernel threads and the idle task
 * take their cycles' time too: they never return to user space to pay, so
 * the CPU owes what they did faster than their cycles allow, and the next
 * user task to run on it pays that ("kernel_owed_ns"), with what a task
 * that exited there still owed after its last payment.
 *
 * Where each hook is, and why:
 *  - cpu_idle tracepoint: the idle loop's WFI halts the vCPU, so k changes
 *    there; the idle task's own instructions before and after it count in
 *    k, as QEMU runs them, and are owed by the CPU where the counts are
 *    cycles (its halted time left out of its run time), else charged to
 *    nobody;
 *  - sched_switch tracepoint: the interval so far is charged to the task
 *    that leaves (slowed if it has user space; if a kernel thread,
 *    counted in "kthread_ns" and, where the counts are cycles, owed by the
 *    CPU); a per-CPU hrtimer, armed only while the CPU is
 *    busy, accounts every "period_us" of work at the reference speed;
 *  - that hrtimer queues a task_work (per-CPU, embedded, never allocated)
 *    on the running task, which pays on its way back to user space: a
 *    task that computes without system calls pays as it goes;
 *  - sys_enter tracepoint: a task pays what it owes before a system call,
 *    so a periodic task pays its own debt before it sleeps, not the next
 *    task on the CPU. The probe runs with preemption off: the wait keeps
 *    interrupts on between WFIs and ends as soon as the CPU must
 *    reschedule; what is left is paid later;
 *  - sched_process_fork and sched_process_exit tracepoints: a user task
 *    that forks pays for the copy before its child is woken, and one that
 *    exits pays once do_exit() has torn its memory down, before
 *    exit_notify() wakes its parent: on the board the child and the parent
 *    would not run before that work was done;
 *  - sched_waking tracepoint, where the counts are cycles: a user task
 *    that wakes another pays first, so that the task it wakes (a pipe's
 *    reader, say) does not run beside that payment on another CPU. The
 *    probe runs with the wakee's pi_lock held and interrupts off, so the
 *    task pays by spinning, up to VCS_MAX_SPIN_NS, whatever the debt's
 *    size;
 *  - the stall's own WFI changes k too: the vCPU is halted while it waits
 *    and counted as running while it handles the interrupts that wake it;
 *  - the hooks' own code is no work of the task's: each takes the progress
 *    again when it is done ("skips"), and counts its time as stall paid
 *    ("overhead_ns"), since that time is the task's run time all the
 *    same; so is the way from a tick that interrupted user mode to its
 *    task_work. Charged as work, they would add the emulation's own
 *    instructions to a task's, by how many ticks its CPU took. What is
 *    left of the emulation in a task's work
 *    is the interrupt's entry up to the tick's callback and the way back
 *    to user space after a stall;
 *  - a clk notifier on each cluster clock sets the CPUs' speed; a busy CPU
 *    first accounts its work at the old speed (a function call on it);
 *  - a CPU PM notifier: a cpuidle state deeper than WFI (one that calls
 *    cpu_pm_enter(), as cpuidle-psci does) ends with CPU_PM_EXIT, on the
 *    CPU, with interrupts off, before the interrupt that woke it is taken:
 *    the CPU waits there for the state's exit latency (the cpuidle
 *    state's exit_latency_ns: entry plus exit, the worst case that the
 *    governors assume), as it would while its power comes back. The
 *    emulator returns from such a state at once (QEMU's PSCI CPU_SUSPEND
 *    is a WFI), so the latency is the driver's. The wait spins: the
 *    interrupt that woke the CPU is pending, a WFI would return at once;
 *  - CPU hotplug: an offline vCPU is halted.
 *
 * Limits: where the counts are instructions, the work of kernel threads
 * and of the idle task is not slowed (they never return to user space);
 * where they are cycles, the next user task pays for it within its own
 * run time, where a board would spend it before the task runs; what a task
 * that exits owes for its work after the sched_process_exit tracepoint
 * (counting instructions), or the debt of a task that the table of debts
 * (VCS_SAVED_BUCKETS * VCS_SAVED_WAYS tasks) has no room for, is dropped
 * (counted in "dropped_ns"); where the counts are instructions, a task
 * that wakes another pays at its next payment, which the woken task may
 * run beside (the spin before a wakeup is the cycles' only); a debt past
 * VCS_MAX_SPIN_NS at a wakeup pays its rest later, the same way; a
 * payment cut short because another task
 * must run lets what follows it run before the rest is paid: from the
 * sys_enter tracepoint, the system call itself (a read of the clock among
 * them), which on the board would come after the task's work; with the
 * fair-share estimate, k is what this kernel sees, not QEMU's own count:
 * instructions run with the halt state unchanged (an interrupt handler in
 * the idle loop's WFI, a CPU going down) are counted on the wrong side.
 * Under a QEMU
 * without icount (each vCPU on its own host thread) the model is wrong:
 * boot with "virt_cpu_speed.enable=0" there.
 */

#define pr_fmt(fmt) "virt-cpu-speed: " fmt

#include <linux/atomic.h>
#include <linux/clk.h>
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/io.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/percpu.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <trace/events/power.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <asm/irq_regs.h>
#include <clocksource/arm_arch_timer.h>

/* dt * VCS_SHARE_UNIT / k is exact for k up to 8 (lcm(1..8) = 840). */
#define VCS_SHARE_UNIT		840
/*
 * The speed is kept in 1/2^VCS_SPEED_SHIFT of a capacity unit: in whole
 * units the A7 at 200 MHz (377 * 200 / 1400 = 53.86) would be 53, 1.6%
 * slow.
 */
#define VCS_SPEED_SHIFT		10
/*
 * Where the counts are cycles, the ns a cycle takes is kept in
 * 1/2^VCS_NS_SHIFT ns, so that the accounting multiplies and shifts instead
 * of dividing 64-bit numbers (a generic, looping division on 32-bit ARM):
 * a u32 holds it down to 4 MHz, and its rounding is below 1e-7.
 */
#define VCS_NS_SHIFT		24
/* Debts below this wait for the next period: a stall costs a wakeup. */
#define VCS_MIN_STALL_NS	(20 * NSEC_PER_USEC)
/*
 * A debt is never allowed past this (one period at the slowest speed of
 * the XU4, 53 of 1024, is about 20 ms); the rest is counted as dropped.
 */
#define VCS_MAX_DEBT_NS		(100 * NSEC_PER_MSEC)
/* A stall that overshot (its wakeup's own path) is taken off the next. */
#define VCS_MAX_CREDIT_NS	(1 * NSEC_PER_MSEC)
/*
 * At most this much is paid by spinning before a wakeup, with interrupts
 * off (a few of the board's ticks at most); the rest is paid later.
 */
#define VCS_MAX_SPIN_NS		(500 * NSEC_PER_USEC)
/*
 * The debts of user tasks that left a CPU owing: a hash table of
 * VCS_SAVED_BUCKETS buckets of VCS_SAVED_WAYS entries.
 */
#define VCS_SAVED_BITS		6
#define VCS_SAVED_BUCKETS	BIT(VCS_SAVED_BITS)
#define VCS_SAVED_WAYS		4
/*
 * The largest time scale: VCS_SHARE_UNIT * 1000 (ref_permille) times it
 * stays within 32 bits, and the arch timer's rate within a u32 Hz.
 */
#define VCS_MAX_TIME_SCALE	64
/* task_work requests in flight per CPU (tasks that did not get back yet). */
#define VCS_NR_WORKS		4

static bool enable = true;
module_param(enable, bool, 0644);
MODULE_PARM_DESC(enable, "Slow the vCPUs to their CPU's speed (default: Y)");

static unsigned int period_us = 1000;
module_param(period_us, uint, 0644);
MODULE_PARM_DESC(period_us,
		 "Work between two accountings of a busy CPU, us at the reference speed (100-5000, default 1000)");

/*
 * The guest's time scale: instructions that a lone vCPU executes per ns of
 * guest time (the arch timer's rate over the emulator's, vcs_time_scale_of()).
 */
static u32 vcs_time_scale = 1;

static unsigned int ref_permille = 100;
module_param(ref_permille, uint, 0644);
MODULE_PARM_DESC(ref_permille,
		 "Speed of capacity 1024 at the top rate, in 1/1000 of a lone vCPU's (10-1000, default 100)");

/**
 * struct vcs_share - the fair-share clock of the vCPUs
 * @lock: serialises the clock's updates
 * @since: guest time of the last update, ns (ktime_get())
 * @clock: progress of a vCPU that never halted since boot, in
 *	   1/VCS_SHARE_UNIT ns of a lone vCPU's instructions
 * @running: vCPUs not halted (k)
 */
struct vcs_share {
	raw_spinlock_t lock;
	u64 since;
	u64 clock;
	unsigned int running;
};

static struct vcs_share vcs_share = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(vcs_share.lock),
};

/*
 * Each vCPU's own instruction count, kept by the emulator in reserved
 * memory ("linux,virt-insn-counters"), as u64 words: word i counts the
 * vCPU whose hardware ID (MPIDR) is i. Words VCS_INSNS_ID_OF(i) are ours:
 * the value of vCPU i's TPIDRPRW (its per-CPU offset) with bit 32 set, for
 * an emulator that tells vCPUs apart only by a register (QEMU 10.0's
 * plugins under round-robin TCG). NULL where the emulator keeps no count:
 * the fair share is the estimate then.
 */
#define VCS_INSNS_MAX_CPUS	64
#define VCS_INSNS_ID_OF(hwid)	(VCS_INSNS_MAX_CPUS + (hwid))
#define VCS_INSNS_ID_SET	BIT_ULL(32)
#define VCS_INSNS_SIZE		(2 * VCS_INSNS_MAX_CPUS * sizeof(u64))
/*
 * In a page of 4096 bytes, word VCS_FMT_WORD says what the counts are:
 * VCS_FMT_MAGIC in its top 16 bits, VCS_FMT_CYCLES when they are cycles of
 * each vCPU's core type at its cost model (else instructions), VCS_FMT_HIST
 * when each of the first VCS_FMT_HIST_VCPUS() vCPUs has its instruction
 * class counts from word VCS_HIST_BASE on, VCS_HIST_STRIDE words each: the
 * VCS_FMT_CLASSES() classes in user mode, then in kernel mode; and
 * VCS_FMT_MEM when those vCPUs also have the memory event counts of the
 * emulator's cache model from word VCS_EV_BASE on, VCS_EV_STRIDE words
 * each: the VCS_FMT_EVENTS() events in user mode, then in kernel mode;
 * and VCS_FMT_OWN when those class and event counts leave out what a vCPU
 * executes while its word VCS_OWN_BASE + hwid is not zero: the guest sets
 * it while the emulation's own code runs (vcs_progress()).
 */
#define VCS_FMT_SIZE		4096
#define VCS_FMT_WORD		128
#define VCS_FMT_MAGIC		(0x5643ULL << 48)
#define VCS_FMT_MAGIC_MASK	(0xffffULL << 48)
#define VCS_FMT_CYCLES		BIT_ULL(0)
#define VCS_FMT_HIST		BIT_ULL(1)
#define VCS_FMT_CLASSES(f)	(((f) >> 8) & 0xff)
#define VCS_FMT_HIST_VCPUS(f)	(((f) >> 16) & 0xff)
#define VCS_HIST_BASE		256
#define VCS_HIST_STRIDE		32
#define VCS_FMT_MEM		BIT_ULL(2)
#define VCS_FMT_EVENTS(f)	(((f) >> 24) & 0xff)
#define VCS_EV_BASE		192
#define VCS_EV_STRIDE		8
#define VCS_FMT_OWN		BIT_ULL(3)
#define VCS_OWN_BASE		160
static atomic64_t *vcs_insns;
/* The counts are cycles (the emulator's cost model), not instructions. */
static bool vcs_cycles;
/* The class counts' layout, 0 classes where the emulator keeps none. */
static unsigned int vcs_hist_classes, vcs_hist_vcpus;
/* The class counts leave the emulation's own code out (VCS_FMT_OWN). */
static bool vcs_hist_own;
/* Their names, in the emulator's order (its plugin's class_names[]). */
static const char * const vcs_class_names[] = {
	"other", "load", "store", "ldm", "stm", "branch", "mul", "div",
	"simd", "barrier", "excl", "sysreg", "maint", "ctxsw", "eret", "entry",
};

/* The memory events' count (0: none) and names (its plugin's event_names[]). */
static unsigned int vcs_events;
static const char * const vcs_event_names[] = { "l2", "dram", "stream" };

/**
 * struct vcs_work - a request to pay, queued on a task
 * @head: the task_work
 * @cpu: the CPU whose pool it belongs to
 * @bit: its bit in that CPU's @works_busy
 */
struct vcs_work {
	struct callback_head head;
	int cpu;
	int bit;
};

/*
 * The statistics of a CPU, in debugfs as virt_cpu_speed/cpuN/<name>:
 * @VCS_WORK: work of user tasks, ns at the reference speed
 * @VCS_RUN: time user tasks ran, not counting the stalls, ns
 * @VCS_STALL: stall paid, ns
 * @VCS_OWED: stall owed for that work, ns (paid / owed: how much of the
 *	      dilation was achieved)
 * @VCS_SHORTFALL: time the CPU ran slower than its speed, ns
 * @VCS_KTHREAD: run time of kernel threads (not slowed), ns
 * @VCS_DROPPED: debt never paid (past VCS_MAX_DEBT_NS), ns
 * @VCS_STALLS: number of stalls
 * @VCS_WAKE: time spent waking from idle states deeper than WFI (their exit
 *	      latency), ns
 * @VCS_WAKES: number of such wake-ups
 * @VCS_OVERHEAD: time of the emulation's own code in user tasks' run time
 *		  (its hooks, and the way from its tick to the stall), not
 *		  charged as work and counted as stall paid, ns
 * @VCS_KOWED: where the counts are cycles, stall owed for the work of
 *	       kernel threads and of the idle task, which the next user task
 *	       on the CPU pays, ns
 * @VCS_SPIN: where the counts are cycles, stall paid by spinning before a
 *	      user task wakes another task (counted in @VCS_STALL too), ns
 * @VCS_LOST_CREDIT: stall paid past the debts and past VCS_MAX_CREDIT_NS
 *		     of credit, never taken off a later debt, ns
 */
enum vcs_counter {
	VCS_WORK,
	VCS_RUN,
	VCS_STALL,
	VCS_OWED,
	VCS_SHORTFALL,
	VCS_KTHREAD,
	VCS_DROPPED,
	VCS_STALLS,
	VCS_WAKE,
	VCS_WAKES,
	VCS_OVERHEAD,
	VCS_KOWED,
	VCS_SPIN,
	VCS_LOST_CREDIT,
	VCS_NR_COUNTERS
};

static const char * const vcs_counter_names[VCS_NR_COUNTERS] = {
	[VCS_WORK] = "work_ns",
	[VCS_RUN] = "run_ns",
	[VCS_STALL] = "stall_ns",
	[VCS_OWED] = "owed_ns",
	[VCS_SHORTFALL] = "shortfall_ns",
	[VCS_KTHREAD] = "kthread_ns",
	[VCS_DROPPED] = "dropped_ns",
	[VCS_STALLS] = "stalls",
	[VCS_WAKE] = "wake_ns",
	[VCS_WAKES] = "wakes",
	[VCS_OVERHEAD] = "overhead_ns",
	[VCS_KOWED] = "kernel_owed_ns",
	[VCS_SPIN] = "spin_ns",
	[VCS_LOST_CREDIT] = "lost_credit_ns",
};

/**
 * struct vcs_cpu - the time dilation state of one CPU
 * @cpu: the CPU
 * @hwid: its MPIDR, the index of its word in vcs_insns
 * @clk: the CPU's cluster clock
 * @nb: rate change notifier on @clk
 * @rate_max: the highest rate of @clk, Hz
 * @ns_mult: ns a cycle takes at the clock's rate now, in 1/2^VCS_NS_SHIFT
 *	     ns (the accounting's where the counts are cycles)
 * @ns_mult_max: the same at @rate_max
 * @speed: capacity * rate / @rate_max, capacity units (debugfs)
 * @speed_fine: the same in 1/2^VCS_SPEED_SHIFT of a capacity unit (the
 *		accounting's)
 * @tick: accounts work while the CPU is busy
 * @wake: ends a stall
 * @works: requests to pay, queued from @tick
 * @works_busy: bitmap of the @works in flight
 * @queued: the task last asked to pay (compared, never dereferenced)
 * @busy: a task other than the idle task runs
 * @user: that task has user space (the others are not slowed)
 * @stalling: a stall is in progress on this CPU
 * @from_tick: @tick interrupted user mode and queued a stall: what runs
 *	       until it starts is the emulation's (IRQ exit, task_work)
 * @halted: this CPU is counted as halted in vcs_share.running
 * @deadline: when the stall in progress is due to end, ns (ktime_get())
 * @last: end of the last accounted interval, ns (ktime_get())
 * @share: vcs_progress() at @last
 * @debt: stall still owed, ns; negative: a stall overshot, taken off the
 *	  next one
 * @kdebt: stall owed for the work of kernel threads and of the idle task
 *	   where the counts are cycles, ns; the next user task pays it;
 *	   negative: the credit an exiting task left, taken off its debt
 * @halted_ns: time this CPU's vCPU was halted, ns, up to @halted_since
 *	       while it is
 * @halted_since: when it last halted, ns (ktime_get())
 * @halted_mark: vcs_halted_ns() at @last
 * @idle_idx: the cpuidle state the idle loop is entering (cpu_idle
 *	      tracepoint), -1 out of the idle loop
 * @pm_idx: the cpuidle state of the CPU PM entry in progress, -1: none
 * @own: where this CPU says that the emulation's own code runs, for the
 *	 emulator's class counts (its word VCS_OWN_BASE + @hwid of the page);
 *	 @own_none where the emulator has no such word
 * @own_none: written where the emulator has no word for @own
 * @counters: the statistics, enum vcs_counter (debugfs, one per file)
 *
 * Only the CPU itself writes its state, with interrupts disabled.
 */
struct vcs_cpu {
	int cpu;
	u32 hwid;
	struct clk *clk;
	struct notifier_block nb;
	unsigned long rate_max;
	u32 ns_mult;
	u32 ns_mult_max;
	unsigned long speed;
	unsigned long speed_fine;
	struct hrtimer tick;
	struct hrtimer wake;
	struct vcs_work works[VCS_NR_WORKS];
	unsigned long works_busy;
	struct task_struct *queued;
	bool busy;
	bool user;
	bool stalling;
	bool from_tick;
	bool halted;
	u64 deadline;
	u64 last;
	u64 share;
	s64 debt;
	s64 kdebt;
	u64 halted_ns;
	u64 halted_since;
	u64 halted_mark;
	int idle_idx;
	int pm_idx;
	u32 *own;
	u32 own_none;
	atomic64_t counters[VCS_NR_COUNTERS];
};

static DEFINE_PER_CPU(struct vcs_cpu, vcs_cpus);
static enum cpuhp_state vcs_cpuhp;

/**
 * struct vcs_saved - the debt of a user task that left a CPU owing
 * @task: the task (compared, never dereferenced); NULL: a free entry
 * @start_time: its start time, ns: tells it from a later task that has
 *		the same address
 * @debt: what it owes, ns; negative: the credit of a stall that overshot
 */
struct vcs_saved {
	const struct task_struct *task;
	u64 start_time;
	s64 debt;
};

static struct vcs_saved vcs_saved[VCS_SAVED_BUCKETS][VCS_SAVED_WAYS];
static DEFINE_RAW_SPINLOCK(vcs_saved_lock);

/*
 * Take @paid ns off @debt (this CPU's vc->debt or vc->kdebt); below
 * -VCS_MAX_CREDIT_NS, what was paid past the debt is counted as lost.
 */
static void vcs_credit(struct vcs_cpu *vc, s64 *debt, s64 paid)
{
	*debt -= paid;
	if (*debt < -(s64)VCS_MAX_CREDIT_NS) {
		atomic64_add(-VCS_MAX_CREDIT_NS - *debt, &vc->counters[VCS_LOST_CREDIT]);
		*debt = -VCS_MAX_CREDIT_NS;
	}
}

/*
 * @p, a user task, leaves this CPU owing vc->debt: keep it for @p. A task
 * that finds its bucket full drops a debt (the evicted entry's); one that
 * exits has paid for its memory's teardown (vcs_process_exit()) and drops
 * what it owes for the rest of its way out, or where the counts are cycles
 * leaves it to the CPU, whose next user task pays it: that way out (its
 * files, the notice to its parent) took that time on the board before
 * anything else ran there. So does the credit of its last stall, where it
 * overshot: the CPU spent that time already, and dropped, it would be
 * time that no work was counted for.
 */
static void vcs_save_debt(struct vcs_cpu *vc, struct task_struct *p)
{
	struct vcs_saved *b = vcs_saved[hash_ptr(p, VCS_SAVED_BITS)], *e = NULL;
	s64 drop = 0;
	int i;

	if (!vc->debt)
		return;
	if ((p->flags & PF_EXITING) && vcs_cycles) {
		vcs_credit(vc, &vc->kdebt, -vc->debt);
	} else if (p->flags & PF_EXITING) {
		drop = vc->debt;
	} else {
		raw_spin_lock(&vcs_saved_lock);
		for (i = 0; i < VCS_SAVED_WAYS && !e; i++)
			if (!b[i].task)
				e = &b[i];
		if (!e) {
			/* Full: the oldest of the bucket's goes. */
			drop = b[0].debt;
			memmove(&b[0], &b[1], (VCS_SAVED_WAYS - 1) * sizeof(*b));
			e = &b[VCS_SAVED_WAYS - 1];
		}
		e->task = p;
		e->start_time = p->start_time;
		e->debt = vc->debt;
		raw_spin_unlock(&vcs_saved_lock);
	}
	if (drop > 0)
		atomic64_add(drop, &vc->counters[VCS_DROPPED]);
	vc->debt = 0;
}

/* @p, a user task, runs on this CPU: what it owes from before, or 0. */
static s64 vcs_take_debt(struct task_struct *p)
{
	struct vcs_saved *b = vcs_saved[hash_ptr(p, VCS_SAVED_BITS)];
	s64 debt = 0;
	int i;

	raw_spin_lock(&vcs_saved_lock);
	for (i = 0; i < VCS_SAVED_WAYS; i++) {
		if (b[i].task != p)
			continue;
		if (b[i].start_time == p->start_time)
			debt = b[i].debt;
		/* Taken, or a dead task's: the entry is free again. */
		b[i].task = NULL;
		break;
	}
	raw_spin_unlock(&vcs_saved_lock);
	return debt;
}

/* Advance the fair-share clock to @now. Called with vcs_share.lock held. */
static void vcs_share_advance(u64 now)
{
	if (now > vcs_share.since && vcs_share.running)
		vcs_share.clock += div_u64((now - vcs_share.since) * VCS_SHARE_UNIT,
					   vcs_share.running);
	vcs_share.since = max(vcs_share.since, now);
}

/* The fair-share clock at @now (no earlier than any update). */
static u64 vcs_share_clock(u64 now)
{
	unsigned long flags;
	u64 clock;

	raw_spin_lock_irqsave(&vcs_share.lock, flags);
	vcs_share_advance(now);
	clock = vcs_share.clock;
	raw_spin_unlock_irqrestore(&vcs_share.lock, flags);
	return clock;
}

/* This CPU's vCPU halts (WFI, offline) or runs again, at @now. */
static void vcs_set_halted(struct vcs_cpu *vc, bool halted, u64 now)
{
	unsigned long flags;

	if (vc->halted == halted)
		return;
	vc->halted = halted;
	if (halted)
		vc->halted_since = now;
	else
		vc->halted_ns += now - min(now, vc->halted_since);
	raw_spin_lock_irqsave(&vcs_share.lock, flags);
	vcs_share_advance(now);
	if (halted)
		vcs_share.running--;
	else
		vcs_share.running++;
	raw_spin_unlock_irqrestore(&vcs_share.lock, flags);
}

/* Time this CPU's vCPU was halted since boot, up to @now, ns. */
static u64 vcs_halted_ns(struct vcs_cpu *vc, u64 now)
{
	return vc->halted_ns + (vc->halted ? now - min(now, vc->halted_since) : 0);
}

/*
 * Progress of this CPU's vCPU since boot, in 1/VCS_SHARE_UNIT instruction:
 * its own instruction count where the emulator keeps one, else the fair
 * share (ns of a lone vCPU, vcs_time_scale instructions each).
 *
 * Read where the emulation's own code starts (@own 1: the task's work
 * ends with this count) or ends (0: it starts after it). The emulator
 * leaves what runs in between out of its class counts, so that these are
 * of the same instructions as the work charged (VCS_FMT_OWN). The word is
 * written right after the count is read, with no branch between them: the
 * emulator counts a translation block's instructions when the block
 * starts, and so counts the block that reads the count on the side that
 * the count puts it.
 */
static u64 vcs_progress(struct vcs_cpu *vc, u64 now, u32 own)
{
	u64 count;

	if (!vcs_insns)
		return vcs_share_clock(now) * vcs_time_scale;
	count = atomic64_read(&vcs_insns[vc->hwid]);
	WRITE_ONCE(*vc->own, own);
	return count * VCS_SHARE_UNIT;
}

/* The reference's share of a lone vCPU's rate, 1/1000, within its bounds. */
static u32 vcs_ref_permille(void)
{
	return clamp_t(u32, READ_ONCE(ref_permille), 10, 1000);
}

/*
 * Guest time in which a busy CPU makes one period of work at the
 * reference speed, while @running vCPUs share the instructions.
 */
static ktime_t vcs_period(unsigned int running)
{
	u64 ns = (u64)NSEC_PER_USEC * clamp_t(u32, READ_ONCE(period_us), 100, 5000);

	ns = div_u64(ns * vcs_ref_permille(), 1000);
	return ns_to_ktime(ns * max(running, 1U));
}

/*
 * Add @owe ns to @debt (this CPU's vc->debt or vc->kdebt), counting it in
 * the statistic @owed; a debt never grows past VCS_MAX_DEBT_NS, and what
 * would is counted as dropped.
 */
static void vcs_owe(struct vcs_cpu *vc, s64 *debt, s64 owe, enum vcs_counter owed)
{
	atomic64_add(owe, &vc->counters[owed]);
	*debt += owe;
	if (*debt > (s64)VCS_MAX_DEBT_NS) {
		atomic64_add(*debt - VCS_MAX_DEBT_NS, &vc->counters[VCS_DROPPED]);
		*debt = VCS_MAX_DEBT_NS;
	}
}

/*
 * The next interval of this CPU starts at @now, with the progress @share:
 * what vcs_account() charges next is measured from here.
 */
static void vcs_mark(struct vcs_cpu *vc, u64 now, u64 share)
{
	vc->last = now;
	vc->share = share;
	vc->halted_mark = vcs_halted_ns(vc, now);
}

/*
 * Where the counts are cycles, kernel threads and the idle task take their
 * cycles' time too: @progress, run in @ran ns of the vCPU's own (its halts
 * left out), should have taken its cycles over the clock's rate. They
 * never return to user space to pay, so the CPU owes the difference and
 * the next user task to run on it pays, as its own debt.
 */
static void vcs_account_kernel(struct vcs_cpu *vc, u64 progress, u64 ran)
{
	u64 cycles = div_u64(progress, VCS_SHARE_UNIT);
	s64 owe = (s64)mul_u64_u32_shr(cycles, READ_ONCE(vc->ns_mult), VCS_NS_SHIFT) -
		  (s64)ran;

	if (owe > 0)
		vcs_owe(vc, &vc->kdebt, owe, VCS_KOWED);
}

/* Account the interval since the last call: work, and the debt it makes. */
static void vcs_account(struct vcs_cpu *vc, u64 now)
{
	u64 clock = vcs_progress(vc, now, 1);
	u64 progress = clock - vc->share, dt = now - vc->last;
	u64 halted_mark = vc->halted_mark, ran;
	unsigned long speed = clamp_t(unsigned long, READ_ONCE(vc->speed_fine), 1,
				      SCHED_CAPACITY_SCALE << VCS_SPEED_SHIFT);
	u64 work, should;
	s64 owe;

	vcs_mark(vc, now, clock);
	ran = dt - min(dt, vc->halted_mark - halted_mark);
	if (vc->stalling || !READ_ONCE(enable))
		return;

	if (!vc->busy || !vc->user) {
		if (vc->busy)
			atomic64_add(dt, &vc->counters[VCS_KTHREAD]);
		if (vcs_cycles)
			vcs_account_kernel(vc, progress, ran);
		return;
	}
	if (vcs_cycles) {
		/*
		 * Cycles of the CPU's core type: they take cycles / rate; the
		 * work is counted at the CPU's top rate.
		 */
		u64 cycles = div_u64(progress, VCS_SHARE_UNIT);

		work = mul_u64_u32_shr(cycles, vc->ns_mult_max, VCS_NS_SHIFT);
		should = mul_u64_u32_shr(cycles, READ_ONCE(vc->ns_mult), VCS_NS_SHIFT);
	} else {
		/* Work at the reference speed, and the time it takes at ours. */
		work = div_u64(progress * 1000,
			       VCS_SHARE_UNIT * vcs_ref_permille() * vcs_time_scale);
		should = div_u64(work * (SCHED_CAPACITY_SCALE << VCS_SPEED_SHIFT),
				 speed);
	}
	owe = (s64)should - (s64)dt;
	atomic64_add(work, &vc->counters[VCS_WORK]);
	atomic64_add(dt, &vc->counters[VCS_RUN]);
	if (owe < 0) {
		/* Not made up for later: a CPU that fell behind stays so. */
		atomic64_add(-owe, &vc->counters[VCS_SHORTFALL]);
		return;
	}
	vcs_owe(vc, &vc->debt, owe, VCS_OWED);
}

/*
 * The emulation's own code ran since the last accounting: no work of the
 * task. Its time is the task's run time all the same (a halted vCPU would
 * not have spent it), so it counts as stall paid, not as the task's work,
 * which would otherwise grow with the number of ticks its CPU took. The
 * task's work starts again here.
 */
static void vcs_skip(struct vcs_cpu *vc, u64 now)
{
	u64 dt = now - vc->last;

	vcs_mark(vc, now, vcs_progress(vc, now, 0));
	if (!vc->busy || !vc->user || vc->stalling || !READ_ONCE(enable))
		return;
	vcs_credit(vc, &vc->debt, dt);
	atomic64_add(dt, &vc->counters[VCS_OVERHEAD]);
}

/*
 * Pay this CPU's debt, from @start on, in the context of the running user
 * task. Called with interrupts and preemption off, so that the CPU and its
 * state stay ours; interrupts are taken between WFIs. The stall ends early
 * when something else must run; the rest of the debt is paid later.
 */
static void vcs_pay(struct vcs_cpu *vc, u64 start)
{
	u64 now = start, deadline;

	if (vc->debt < (s64)VCS_MIN_STALL_NS)
		return;

	/* The stall is the emulation's, up to the caller's vcs_skip(). */
	WRITE_ONCE(*vc->own, 1);
	deadline = start + vc->debt;
	vc->deadline = deadline;
	vc->stalling = true;
	hrtimer_start(&vc->wake, ns_to_ktime(deadline),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	while (now < deadline && !need_resched()) {
		/* Halted: the other vCPUs share the instructions. */
		vcs_set_halted(vc, true, now);
		/* WFI wakes on a pending interrupt even while it is masked. */
		wfi();
		vcs_set_halted(vc, false, ktime_get_ns());
		/* Let the interrupt that woke us (or any other) run. */
		local_irq_enable();
		local_irq_disable();
		now = ktime_get_ns();
	}
	vc->stalling = false;
	hrtimer_try_to_cancel(&vc->wake);
	hrtimer_start(&vc->tick, ktime_add(ns_to_ktime(now),
					   vcs_period(READ_ONCE(vcs_share.running))),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	/* The timers' updates are the stall's too. */
	now = ktime_get_ns();

	/* Closed loop: what was paid is measured, over or under the debt. */
	vcs_credit(vc, &vc->debt, now - start);
	atomic64_add(now - start, &vc->counters[VCS_STALL]);
	atomic64_inc(&vc->counters[VCS_STALLS]);
	/* The stall is no work: the next interval starts here. */
	vcs_mark(vc, now, vcs_progress(vc, now, 1));
}

/*
 * Pay this CPU's debt, up to VCS_MAX_SPIN_NS of it, from @start on, in the
 * context of the running user task, by spinning: for a caller that must
 * keep interrupts off. A WFI would return at once while an interrupt is
 * pending and masked, so the vCPU runs through the wait and takes its
 * share; under QEMU's icount the loop's instructions are guest time. Spin
 * on sched_clock, the arch timer as is, whose reads cost fewer
 * instructions than ktime_get_ns()'s; not cpu_relax(), whose YIELD ends
 * the vCPU's turn at every iteration. Debts of any size are paid, as the
 * wait costs no wakeup.
 */
static void vcs_pay_spin(struct vcs_cpu *vc, u64 start)
{
	u64 now, end;
	s64 paid;

	if (vc->debt <= 0)
		return;
	/* The spin is the emulation's, up to the caller's vcs_skip(). */
	WRITE_ONCE(*vc->own, 1);
	now = local_clock();
	end = now + min_t(s64, vc->debt, VCS_MAX_SPIN_NS);
	while (local_clock() < end)
		barrier();
	now = ktime_get_ns();

	/* Closed loop, as vcs_pay()'s. */
	paid = now - start;
	vcs_credit(vc, &vc->debt, paid);
	atomic64_add(paid, &vc->counters[VCS_STALL]);
	atomic64_add(paid, &vc->counters[VCS_SPIN]);
	atomic64_inc(&vc->counters[VCS_STALLS]);
	vcs_mark(vc, now, vcs_progress(vc, now, 1));
}

/*
 * The task_work queued by the tick: pay this CPU's debt (the one we run on
 * now, not necessarily the one that asked) on the way back to user space.
 */
static void vcs_stall(struct callback_head *head)
{
	struct vcs_work *w = container_of(head, struct vcs_work, head);
	struct vcs_cpu *vc;
	u64 start;

	clear_bit(w->bit, &per_cpu_ptr(&vcs_cpus, w->cpu)->works_busy);
	if (current->flags & PF_EXITING)
		return;
	preempt_disable();
	local_irq_disable();
	vc = this_cpu_ptr(&vcs_cpus);
	if (vc->queued == current)
		vc->queued = NULL;
	start = ktime_get_ns();
	/*
	 * The way here from a tick that interrupted user mode (IRQ exit,
	 * task_work) is the emulation's; from one that interrupted the kernel
	 * it holds the task's own kernel work too.
	 */
	if (vc->from_tick)
		vcs_skip(vc, start);
	else
		vcs_account(vc, start);
	vc->from_tick = false;
	if (vc->busy && vc->user)
		vcs_pay(vc, start);
	/* The way out of here is no work of the task's. */
	vcs_skip(vc, ktime_get_ns());
	local_irq_enable();
	preempt_enable();
}

/*
 * The running user task pays what it owes now, from a tracepoint's probe
 * (preemption off): its work so far is accounted, and the probe's own
 * time is no work of the task's. @spin: it pays by spinning, with
 * interrupts kept off (vcs_pay_spin()), else in WFI (vcs_pay()).
 */
static void vcs_pay_now(bool spin)
{
	struct vcs_cpu *vc;
	unsigned long flags;
	u64 now;

	local_irq_save(flags);
	vc = this_cpu_ptr(&vcs_cpus);
	if (vc->busy && vc->user && !vc->stalling) {
		now = ktime_get_ns();
		vcs_account(vc, now);
		if (spin)
			vcs_pay_spin(vc, now);
		else
			vcs_pay(vc, now);
		vcs_skip(vc, ktime_get_ns());
	}
	local_irq_restore(flags);
}

/*
 * A user task enters a system call: it pays what it owes first, as its
 * work before the call would have taken that much longer.
 */
static void vcs_sys_enter(void *data, struct pt_regs *regs, long id)
{
	vcs_pay_now(false);
}

/*
 * A user task forked: it pays for the copy (copy_process()) before the
 * child is woken (wake_up_new_task() comes after this tracepoint in
 * kernel_clone()), so that the child does not run beside that payment.
 */
static void vcs_process_fork(void *data, struct task_struct *parent,
			     struct task_struct *child)
{
	vcs_pay_now(false);
}

/*
 * A user task exits, its memory torn down (exit_mm() comes just before
 * this tracepoint in do_exit()): it pays for that before exit_notify()
 * tells its parent, which on the board waits for the teardown too.
 */
static void vcs_process_exit(void *data, struct task_struct *p)
{
	vcs_pay_now(false);
}

/*
 * A task wakes @p (try_to_wake_up(), with @p's pi_lock held and interrupts
 * off, before @p is queued): where the counts are cycles, the running user
 * task, if it is the waker, first pays what it owes, by spinning. On the
 * board its work up to here (a pipe's write, say) would have taken that
 * long before @p could run; paid after, at its next system call, that
 * time would overlap @p's run on another CPU. A wakeup from an interrupt
 * is no work of the running task's, and a task that wakes itself pays
 * nothing here.
 */
static void vcs_sched_waking(void *data, struct task_struct *p)
{
	if (vcs_cycles && in_task() && p != current && READ_ONCE(enable))
		vcs_pay_now(true);
}

/*
 * Have @p, the user task running on this CPU, pay on its way to user space.
 * Return: true if a request was queued.
 */
static bool vcs_queue_stall(struct vcs_cpu *vc, struct task_struct *p)
{
	int bit;

	if (vc->debt < (s64)VCS_MIN_STALL_NS || !vc->user || vc->queued == p ||
	    (p->flags & PF_EXITING))
		return false;

	bit = find_first_zero_bit(&vc->works_busy, VCS_NR_WORKS);
	if (bit >= VCS_NR_WORKS || test_and_set_bit(bit, &vc->works_busy))
		return false;
	init_task_work(&vc->works[bit].head, vcs_stall);
	if (task_work_add(p, &vc->works[bit].head, TWA_RESUME)) {
		clear_bit(bit, &vc->works_busy);
		return false;
	}
	vc->queued = p;
	return true;
}

static enum hrtimer_restart vcs_tick(struct hrtimer *t)
{
	struct vcs_cpu *vc = container_of(t, struct vcs_cpu, tick);
	ktime_t period = vcs_period(READ_ONCE(vcs_share.running));
	struct pt_regs *regs = get_irq_regs();
	bool queued;

	/* No work while stalling: no wakeup before the stall's end either. */
	if (vc->stalling) {
		hrtimer_set_expires(t, ktime_add(ns_to_ktime(max(vc->deadline,
								 ktime_get_ns())),
						 period));
		return HRTIMER_RESTART;
	}
	vcs_account(vc, ktime_get_ns());
	queued = vcs_queue_stall(vc, current);
	vc->from_tick = queued && regs && user_mode(regs);
	if (!vc->busy) {
		vcs_skip(vc, ktime_get_ns());
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, period);
	/* The callback is no work of the task's. */
	vcs_skip(vc, ktime_get_ns());
	/* Nor is the way to the stall, which vcs_stall() skips. */
	if (vc->from_tick)
		WRITE_ONCE(*vc->own, 1);
	return HRTIMER_RESTART;
}

static enum hrtimer_restart vcs_wake(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

/* Runs on the CPU switching, with its runqueue locked and IRQs off. */
static void vcs_sched_switch(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	struct vcs_cpu *vc = this_cpu_ptr(&vcs_cpus);
	bool was_busy = vc->busy;
	u64 now = ktime_get_ns();

	vcs_account(vc, now);
	vc->from_tick = false;
	/* A task that leaves the CPU owes nothing more here. */
	if (vc->queued == prev)
		vc->queued = NULL;
	/* Its debt goes with it: @next pays its own, if any. */
	if (vc->user)
		vcs_save_debt(vc, prev);
	vc->busy = !is_idle_task(next);
	vc->user = next->mm && !(next->flags & PF_KTHREAD);
	vc->debt = vc->user ? vcs_take_debt(next) : 0;
	/* What kernel threads and the idle task owe, the next user task pays. */
	if (vc->user && vc->kdebt) {
		vc->debt += vc->kdebt;
		vc->kdebt = 0;
	}

	if (vc->busy && !was_busy)
		hrtimer_start(&vc->tick,
			      ktime_add(ns_to_ktime(now),
					vcs_period(READ_ONCE(vcs_share.running))),
			      HRTIMER_MODE_ABS_PINNED_HARD);
	else if (!vc->busy && was_busy)
		hrtimer_try_to_cancel(&vc->tick);
	/* This probe is no work of the next task's. */
	vcs_skip(vc, ktime_get_ns());
}

/* The idle loop's WFI: IRQs off, on the CPU itself. */
static void vcs_cpu_idle(void *data, unsigned int state, unsigned int cpu)
{
	struct vcs_cpu *vc = this_cpu_ptr(&vcs_cpus);

	vc->idle_idx = state == PWR_EVENT_EXIT ? -1 : state;
	vcs_set_halted(vc, state != PWR_EVENT_EXIT, ktime_get_ns());
}

/*
 * A cpuidle state deeper than WFI, entered and left on this CPU with IRQs
 * off: on the way out, wait for its exit latency (see the top comment).
 */
static int vcs_cpu_pm(struct notifier_block *nb, unsigned long action,
		      void *data)
{
	struct vcs_cpu *vc = this_cpu_ptr(&vcs_cpus);
	struct cpuidle_device *dev;
	struct cpuidle_driver *drv;
	int idx = vc->pm_idx;
	u64 now, end;

	if (action == CPU_PM_ENTER) {
		vc->pm_idx = vc->idle_idx;
		return NOTIFY_OK;
	}
	if (action != CPU_PM_EXIT && action != CPU_PM_ENTER_FAILED)
		return NOTIFY_DONE;
	vc->pm_idx = -1;
	if (action != CPU_PM_EXIT || !READ_ONCE(enable) || idx <= 0)
		return NOTIFY_OK;
	dev = cpuidle_get_device();
	drv = dev ? cpuidle_get_cpu_driver(dev) : NULL;
	if (!drv || idx >= drv->state_count)
		return NOTIFY_OK;

	/* Waking up is no halt: the vCPU runs, and takes its share. */
	vcs_set_halted(vc, false, ktime_get_ns());
	/*
	 * Spin on sched_clock, the arch timer as is: under QEMU's icount every
	 * instruction of the loop is guest time, and the clock's reads cost
	 * fewer of them (and less host time) than ktime_get_ns()'s. Not
	 * cpu_relax(): on ARMv7 its YIELD ends the vCPU's turn, at every
	 * iteration.
	 */
	now = local_clock();
	end = now + drv->states[idx].exit_latency_ns;
	while (local_clock() < end)
		barrier();
	atomic64_add(end - now, &vc->counters[VCS_WAKE]);
	atomic64_inc(&vc->counters[VCS_WAKES]);
	return NOTIFY_OK;
}

static struct notifier_block vcs_pm_nb = {
	.notifier_call = vcs_cpu_pm,
};

/*
 * Capacity * @rate / @vc->rate_max of @vc's CPU, in 1/2^VCS_SPEED_SHIFT
 * of a capacity unit.
 */
static unsigned long vcs_speed_fine(struct vcs_cpu *vc, unsigned long rate)
{
	return div64_ul((u64)arch_scale_cpu_capacity(vc->cpu) * rate << VCS_SPEED_SHIFT,
			vc->rate_max);
}

/* ns a cycle takes at @rate Hz, in 1/2^VCS_NS_SHIFT ns (at most U32_MAX). */
static u32 vcs_ns_mult(unsigned long rate)
{
	u64 mult = div64_ul((u64)NSEC_PER_SEC << VCS_NS_SHIFT, max(rate, 1UL));

	return min_t(u64, mult, U32_MAX);
}

/* Set @vc's clock @rate (Hz), and the speed it gives. */
static void vcs_write_speed(struct vcs_cpu *vc, unsigned long rate)
{
	unsigned long speed_fine = vcs_speed_fine(vc, rate);

	WRITE_ONCE(vc->ns_mult, vcs_ns_mult(rate));
	WRITE_ONCE(vc->speed_fine, speed_fine);
	WRITE_ONCE(vc->speed, speed_fine >> VCS_SPEED_SHIFT);
}

/* On the CPU whose cluster clock changed rate: account, then the new speed. */
static void vcs_set_speed(void *info)
{
	struct vcs_cpu *vc = this_cpu_ptr(&vcs_cpus);

	vcs_account(vc, ktime_get_ns());
	vcs_write_speed(vc, (unsigned long)info);
	/* The rest of the call is no work of the task's. */
	vcs_skip(vc, ktime_get_ns());
}

static int vcs_rate_change(struct notifier_block *nb, unsigned long event,
			   void *data)
{
	struct vcs_cpu *vc = container_of(nb, struct vcs_cpu, nb);
	struct clk_notifier_data *ndata = data;
	unsigned long rate = ndata->new_rate;
	int cpu = vc->cpu;

	if (event != POST_RATE_CHANGE)
		return NOTIFY_DONE;

	/* An idle or offline CPU has no work to account at the old speed. */
	if (!READ_ONCE(vc->busy) ||
	    smp_call_function_single(cpu, vcs_set_speed, (void *)rate, 1))
		vcs_write_speed(vc, rate);
	return NOTIFY_OK;
}

static int vcs_cpu_online(unsigned int cpu)
{
	unsigned long flags;

	local_irq_save(flags);
	vcs_set_halted(this_cpu_ptr(&vcs_cpus), false, ktime_get_ns());
	local_irq_restore(flags);
	return 0;
}

static int vcs_cpu_offline(unsigned int cpu)
{
	unsigned long flags;

	local_irq_save(flags);
	vcs_set_halted(this_cpu_ptr(&vcs_cpus), true, ktime_get_ns());
	local_irq_restore(flags);
	return 0;
}

/*
 * The counters, and the emulator's instruction counts, are atomic64_t:
 * whole on 32-bit, whoever reads them.
 */
static int vcs_counter_get(void *data, u64 *val)
{
	*val = atomic64_read(data);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vcs_counter_fops, vcs_counter_get, NULL, "%llu\n");

static int vcs_debt_get(void *data, u64 *val)
{
	*val = READ_ONCE(((struct vcs_cpu *)data)->debt);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vcs_debt_fops, vcs_debt_get, NULL, "%lld\n");

static int vcs_share_get(void *data, u64 *val)
{
	*val = div_u64(vcs_share_clock(ktime_get_ns()), VCS_SHARE_UNIT);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vcs_share_fops, vcs_share_get, NULL, "%llu\n");

/* What the emulator's counts are: "cycles", "insns", or "none". */
static int vcs_unit_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", !vcs_insns ? "none" : vcs_cycles ? "cycles" : "insns");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcs_unit);

/*
 * A CPU's instruction class counts since boot, as the emulator keeps them:
 * a line "CLASS USER KERNEL" each, instructions executed in user and
 * kernel mode ("entry": exception entries, counted once each); then, with
 * the emulator's cache model, a line "EVENT USER KERNEL" for each memory
 * event (accesses that missed the L1: "l2" hit the L2, "stream" a
 * prefetched stream, "dram" neither).
 */
static int vcs_classes_show(struct seq_file *m, void *v)
{
	struct vcs_cpu *vc = m->private;
	atomic64_t *h = &vcs_insns[VCS_HIST_BASE + vc->hwid * VCS_HIST_STRIDE];
	atomic64_t *e = &vcs_insns[VCS_EV_BASE + vc->hwid * VCS_EV_STRIDE];
	unsigned int i;

	for (i = 0; i < vcs_hist_classes; i++)
		seq_printf(m, "%s %lld %lld\n", vcs_class_names[i],
			   (long long)atomic64_read(&h[i]),
			   (long long)atomic64_read(&h[vcs_hist_classes + i]));
	for (i = 0; i < vcs_events; i++)
		seq_printf(m, "%s %lld %lld\n", vcs_event_names[i],
			   (long long)atomic64_read(&e[i]),
			   (long long)atomic64_read(&e[vcs_events + i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcs_classes);

static void vcs_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("virt_cpu_speed", NULL);
	char name[16];
	int cpu, i;

	debugfs_create_u32("running", 0444, dir, &vcs_share.running);
	debugfs_create_u32("time_scale", 0444, dir, &vcs_time_scale);
	debugfs_create_file_unsafe("share_ns", 0444, dir, NULL, &vcs_share_fops);
	debugfs_create_file("count_unit", 0444, dir, NULL, &vcs_unit_fops);
	if (vcs_hist_classes)
		debugfs_create_bool("classes_without_own", 0444, dir, &vcs_hist_own);
	for_each_possible_cpu(cpu) {
		struct vcs_cpu *vc = per_cpu_ptr(&vcs_cpus, cpu);
		struct dentry *d;

		snprintf(name, sizeof(name), "cpu%d", cpu);
		d = debugfs_create_dir(name, dir);
		debugfs_create_ulong("speed", 0444, d, &vc->speed);
		debugfs_create_file_unsafe("debt_ns", 0444, d, vc, &vcs_debt_fops);
		if (vcs_insns)
			debugfs_create_file_unsafe("insns", 0444, d, &vcs_insns[vc->hwid],
						   &vcs_counter_fops);
		if (vcs_hist_classes && vc->hwid < vcs_hist_vcpus)
			debugfs_create_file("insn_classes", 0444, d, vc, &vcs_classes_fops);
		for (i = 0; i < ARRAY_SIZE(vcs_counter_names); i++)
			debugfs_create_file_unsafe(vcs_counter_names[i], 0444, d,
						   &vc->counters[i], &vcs_counter_fops);
	}
}

static void vcs_put_clocks(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct vcs_cpu *vc = per_cpu_ptr(&vcs_cpus, cpu);

		if (!vc->clk)
			continue;
		if (vc->nb.notifier_call)
			clk_notifier_unregister(vc->clk, &vc->nb);
		vc->nb.notifier_call = NULL;
		clk_put(vc->clk);
		vc->clk = NULL;
	}
}

/* The CPU's cluster clock, its top rate and the notifier on it. */
static int __init vcs_init_cpu(int cpu, struct vcs_cpu *vc)
{
	struct device_node *np = of_cpu_device_node_get(cpu);
	struct clk *clk;
	long max;
	int i, ret;

	if (!np) {
		pr_err("CPU%d: no DT node\n", cpu);
		return -ENODEV;
	}
	clk = of_clk_get(np, 0);
	of_node_put(np);
	if (IS_ERR(clk)) {
		pr_err("CPU%d: no cluster clock: %pe\n", cpu, clk);
		return PTR_ERR(clk);
	}
	vc->clk = clk;
	max = clk_round_rate(clk, ULONG_MAX);
	if (max <= 0) {
		pr_err("CPU%d: cannot read the top clock rate\n", cpu);
		return -EINVAL;
	}
	vc->rate_max = max;
	vc->ns_mult_max = vcs_ns_mult(max);
	vc->cpu = cpu;
	vc->own = &vc->own_none;
	vcs_write_speed(vc, clk_get_rate(clk));
	vc->nb.notifier_call = vcs_rate_change;
	ret = clk_notifier_register(clk, &vc->nb);
	if (ret) {
		vc->nb.notifier_call = NULL;
		pr_err("CPU%d: cannot follow the clock's rate: %d\n", cpu, ret);
		return ret;
	}

	for (i = 0; i < VCS_NR_WORKS; i++) {
		vc->works[i].cpu = cpu;
		vc->works[i].bit = i;
	}
	hrtimer_init(&vc->tick, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	vc->tick.function = vcs_tick;
	hrtimer_init(&vc->wake, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	vc->wake.function = vcs_wake;
	return 0;
}

/*
 * What the counts in a page of @size bytes are (VCS_FMT_WORD): an emulator
 * that gives no format counts instructions and keeps no class counts.
 */
static void __init vcs_read_format(resource_size_t size)
{
	u64 fmt;

	if (size < VCS_FMT_SIZE)
		return;
	fmt = atomic64_read(&vcs_insns[VCS_FMT_WORD]);
	if ((fmt & VCS_FMT_MAGIC_MASK) != VCS_FMT_MAGIC)
		return;
	vcs_cycles = fmt & VCS_FMT_CYCLES;
	if (!(fmt & VCS_FMT_HIST))
		return;
	vcs_hist_classes = VCS_FMT_CLASSES(fmt);
	vcs_hist_vcpus = VCS_FMT_HIST_VCPUS(fmt);
	if (vcs_hist_classes > ARRAY_SIZE(vcs_class_names) ||
	    2 * vcs_hist_classes > VCS_HIST_STRIDE ||
	    VCS_HIST_BASE + vcs_hist_vcpus * VCS_HIST_STRIDE > size / sizeof(u64)) {
		pr_warn("the emulator's class counts (%u classes, %u vCPUs) do not fit: not shown\n",
			vcs_hist_classes, vcs_hist_vcpus);
		vcs_hist_classes = 0;
		return;
	}
	if ((fmt & VCS_FMT_OWN) && VCS_OWN_BASE + vcs_hist_vcpus <= VCS_EV_BASE) {
		int cpu;

		vcs_hist_own = true;
		/* The low half of the little-endian word: the rest stays 0. */
		for_each_possible_cpu(cpu) {
			struct vcs_cpu *vc = per_cpu_ptr(&vcs_cpus, cpu);

			if (vc->hwid < vcs_hist_vcpus)
				vc->own = (u32 *)&vcs_insns[VCS_OWN_BASE + vc->hwid].counter +
					  IS_ENABLED(CONFIG_CPU_BIG_ENDIAN);
		}
	}
	if (!(fmt & VCS_FMT_MEM))
		return;
	vcs_events = VCS_FMT_EVENTS(fmt);
	if (vcs_events > ARRAY_SIZE(vcs_event_names) ||
	    2 * vcs_events > VCS_EV_STRIDE ||
	    VCS_EV_BASE + vcs_hist_vcpus * VCS_EV_STRIDE > VCS_HIST_BASE) {
		pr_warn("the emulator's memory event counts (%u events, %u vCPUs) do not fit: not shown\n",
			vcs_events, vcs_hist_vcpus);
		vcs_events = 0;
	}
}

/*
 * The emulator's per-vCPU instruction counters, where its DT reserves a
 * page for them: one u64 per vCPU, indexed by the CPU's hardware ID (its
 * "reg", the MPIDR), written by the emulator only (for QEMU, a TCG
 * plugin).
 * Return: 0, also when there are none; -EINVAL for a page too small for
 * the CPUs' IDs, -ENOMEM when it cannot be mapped.
 */
static int __init vcs_map_insns(void)
{
	struct device_node *np, *cpu_np;
	struct resource res;
	int cpu, ret;
	u64 hwid;

	np = of_find_compatible_node(NULL, NULL, "linux,virt-insn-counters");
	if (!np)
		return 0;
	ret = of_address_to_resource(np, 0, &res);
	if (!ret && resource_size(&res) < VCS_INSNS_SIZE)
		ret = -EINVAL;
	if (ret) {
		pr_err("%pOF: reg is not a page of %zu bytes or more: %d\n", np,
		       VCS_INSNS_SIZE, ret);
		of_node_put(np);
		return ret;
	}
	for_each_possible_cpu(cpu) {
		cpu_np = of_cpu_device_node_get(cpu);
		hwid = cpu_np ? of_get_cpu_hwid(cpu_np, 0) : ~0ULL;
		of_node_put(cpu_np);
		if (hwid >= VCS_INSNS_MAX_CPUS) {
			pr_err("%pOF: no counter for CPU%d (hardware ID %#llx)\n",
			       np, cpu, hwid);
			of_node_put(np);
			return -EINVAL;
		}
		per_cpu_ptr(&vcs_cpus, cpu)->hwid = hwid;
	}
	of_node_put(np);
	vcs_insns = memremap(res.start, resource_size(&res), MEMREMAP_WB);
	if (!vcs_insns) {
		pr_err("cannot map the instruction counters at %pR\n", &res);
		return -ENOMEM;
	}
	/* How the emulator tells the vCPUs apart: see VCS_INSNS_ID_OF(). */
	for_each_possible_cpu(cpu)
		atomic64_set(&vcs_insns[VCS_INSNS_ID_OF(per_cpu_ptr(&vcs_cpus, cpu)->hwid)],
			     VCS_INSNS_ID_SET | (u32)per_cpu_offset(cpu));
	vcs_read_format(resource_size(&res));
	return 0;
}

/*
 * A virtual board is one whose CPUs are all clocked by emulated cluster
 * clocks ("clocks" of each CPU node: a linux,virt-cluster-clock): no DT
 * node of our own describes the emulation, which is no hardware.
 */
static bool __init vcs_virtual_board(void)
{
	struct device_node *np, *clk_np;
	bool virt;
	int cpu;

	for_each_possible_cpu(cpu) {
		np = of_cpu_device_node_get(cpu);
		if (!np)
			return false;
		clk_np = of_parse_phandle(np, "clocks", 0);
		of_node_put(np);
		virt = clk_np && of_device_is_compatible(clk_np, "linux,virt-cluster-clock");
		of_node_put(clk_np);
		if (!virt)
			return false;
	}
	return true;
}

/*
 * The guest's time scale K: the arch timer's rate (the DT's
 * "clock-frequency" where it has one) over CNTFRQ, the rate at which the
 * emulator's counter ticks, a whole number from 1 to VCS_MAX_TIME_SCALE.
 * 1 where the two agree, or the timer gives no rate.
 */
static u32 __init vcs_time_scale_of(void)
{
	u32 rate = arch_timer_get_rate(), cntfrq = arch_timer_get_cntfrq();
	u32 k;

	if (!rate || !cntfrq || rate == cntfrq)
		return 1;
	k = DIV_ROUND_CLOSEST(rate, cntfrq);
	if (rate < cntfrq || (u64)k * cntfrq != rate || k > VCS_MAX_TIME_SCALE) {
		pr_warn("timer at %u Hz, CNTFRQ %u Hz: not a time scale of 1 to %u, 1 taken\n",
			rate, cntfrq, VCS_MAX_TIME_SCALE);
		return 1;
	}
	return k;
}

static int __init vcs_init(void)
{
	u64 now;
	int cpu, ret;

	if (!vcs_virtual_board())
		return 0;
	vcs_time_scale = vcs_time_scale_of();

	for_each_possible_cpu(cpu) {
		ret = vcs_init_cpu(cpu, per_cpu_ptr(&vcs_cpus, cpu));
		if (ret)
			goto err_clocks;
	}
	ret = vcs_map_insns();
	if (ret)
		goto err_clocks;

	/*
	 * Every online vCPU counts as running until it next halts: the CPUs
	 * in WFI now are woken once the hooks are in, to go idle again.
	 */
	now = ktime_get_ns();
	vcs_share.since = now;
	vcs_share.running = num_online_cpus();
	for_each_possible_cpu(cpu) {
		struct vcs_cpu *vc = per_cpu_ptr(&vcs_cpus, cpu);

		vc->halted = !cpu_online(cpu);
		vc->idle_idx = -1;
		vc->pm_idx = -1;
		vc->halted_since = now;
		vcs_mark(vc, now, vcs_progress(vc, now, 0));
	}

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "misc/virt_cpu_speed:online",
					vcs_cpu_online, vcs_cpu_offline);
	if (ret < 0)
		goto err_clocks;
	vcs_cpuhp = ret;
	ret = register_trace_cpu_idle(vcs_cpu_idle, NULL);
	if (ret)
		goto err_cpuhp;
	ret = register_trace_sched_switch(vcs_sched_switch, NULL);
	if (ret)
		goto err_idle;
	ret = register_trace_sys_enter(vcs_sys_enter, NULL);
	if (ret)
		goto err_switch;
	ret = register_trace_sched_process_fork(vcs_process_fork, NULL);
	if (ret)
		goto err_sys_enter;
	ret = register_trace_sched_process_exit(vcs_process_exit, NULL);
	if (ret)
		goto err_fork;
	ret = register_trace_sched_waking(vcs_sched_waking, NULL);
	if (ret)
		goto err_exit;
	ret = cpu_pm_register_notifier(&vcs_pm_nb);
	if (ret)
		goto err_waking;

	vcs_debugfs_init();
	/* The CPUs in WFI now count themselves out at their next idle entry. */
	wake_up_all_idle_cpus();
	if (vcs_cycles)
		pr_info("CPU speed follows the cluster clock rate in cycles a second (time scale %u; progress from each vCPU's cycle count)\n",
			vcs_time_scale);
	else
		pr_info("CPU speed follows capacity and cluster clock rate (reference %u/1000 of a lone vCPU; time scale %u; progress from %s)\n",
			vcs_ref_permille(), vcs_time_scale,
			vcs_insns ? "each vCPU's instruction count" : "the fair share");
	return 0;

err_waking:
	unregister_trace_sched_waking(vcs_sched_waking, NULL);
err_exit:
	unregister_trace_sched_process_exit(vcs_process_exit, NULL);
err_fork:
	unregister_trace_sched_process_fork(vcs_process_fork, NULL);
err_sys_enter:
	unregister_trace_sys_enter(vcs_sys_enter, NULL);
err_switch:
	unregister_trace_sched_switch(vcs_sched_switch, NULL);
err_idle:
	unregister_trace_cpu_idle(vcs_cpu_idle, NULL);
	tracepoint_synchronize_unregister();
err_cpuhp:
	cpuhp_remove_state_nocalls(vcs_cpuhp);
err_clocks:
	if (vcs_insns)
		memunmap(vcs_insns);
	vcs_insns = NULL;
	vcs_put_clocks();
	pr_err("cannot hook the scheduler: %d\n", ret);
	return ret;
}
device_initcall(vcs_init);
