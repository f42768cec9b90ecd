// SPDX-License-Identifier: GPL-2.0
/*
 * CPU speed of a virtual big.LITTLE board (time dilation)
 *
 * Under QEMU every vCPU runs at the host's speed, whatever its cluster and
 * its cluster clock's rate. On the board a CPU of capacity c (out of 1024)
 * at rate f of a cluster whose top rate is fmax does work at
 *
 *	speed = c * f / fmax	(capacity units, out of 1024)
 *
 * so a piece of work that takes t at full speed takes t * 1024 / speed.
 * This driver makes the vCPUs behave so: for every ns of work a CPU does
 * for a user task, it owes (1024 - speed) / speed ns of stall, and the
 * task running on the CPU pays it, in task context, at its next system
 * call or on its way back to user space. The stall is run time of that
 * task, as the slower clock's extra cycles would be: its runtime and so
 * its PELT util grow as on the board, and util stays invariant across
 * clusters and OPPs.
 *
 * The loop is closed: the work done and the stall paid are both measured
 * with the clock, and each stall pays exactly the debt still owed. The
 * debt is paid at two points:
 *  - on entry to a system call (the sys_enter tracepoint): the work before
 *    the call would have taken that much longer, and a task about to
 *    sleep pays its own debt instead of leaving it to the next one;
 *  - on return to user space, asked for by a per-CPU hrtimer that runs
 *    every "period_us" (debugfs, default 1000) only while the CPU is busy
 *    (idle CPUs get no timer and no wakeup), for tasks that compute
 *    without system calls.
 * The stall waits in WFI woken by an hrtimer at its end (the host core
 * sleeps) or busy-waits; "stall_mode" in debugfs chooses. The period's
 * timer does not fire during a stall.
 *
 * The speed is read from the CPU's cluster clock (its "clocks" in the DT,
 * a linux,virt-cluster-clock), so it follows the rate actually set.
 *
 * Limits: work of kernel threads is not slowed (they never return to user
 * space; its time is counted in "kthread_ns", its debt in "dropped_ns");
 * a debt left when a task blocks in the kernel without a system call
 * (a page fault, a preemption) is paid by the next user task on that CPU;
 * the host must have a core for each busy vCPU for wall time to mean
 * anything, and whatever slows the host slows the emulated work with it.
 */

#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include <asm/barrier.h>

/* Accounting period while a CPU is busy, us (debugfs "period_us"). */
#define VCS_PERIOD_US		1000
#define VCS_PERIOD_MIN_US	100
#define VCS_PERIOD_MAX_US	100000
/* Debts below this wait for the next period: a stall costs a wakeup. */
#define VCS_MIN_STALL_NS	(20 * NSEC_PER_USEC)
/*
 * A debt is never allowed to grow past this, nor a credit (a stall that
 * overshot: a WFI woken late by a busy host) past -this. The credit bound
 * is wide: with 5 ms, 4-13% more stall than owed was paid in make bench.
 */
#define VCS_MAX_DEBT_NS		(500 * NSEC_PER_MSEC)
#define VCS_MAX_CREDIT_NS	(100 * NSEC_PER_MSEC)

enum vcs_stall_mode {
	VCS_STALL_WFI,
	VCS_STALL_SPIN,
};

static const char * const vcs_stall_mode_names[] = {
	[VCS_STALL_WFI] = "wfi",
	[VCS_STALL_SPIN] = "spin",
};

/**
 * struct vcs_cpu - the time dilation state of one CPU
 * @clk: the CPU's cluster clock
 * @rate_max: the highest rate of @clk, in Hz
 * @tick: accounts work every period while the CPU is busy
 * @wake: ends a WFI stall
 * @queued: the task last asked to pay (compared, never dereferenced)
 * @busy: a task other than the idle task runs
 * @user: that task has user space (the others are not slowed)
 * @stalling: a stall is in progress on this CPU
 * @deadline: when the stall in progress is due to end, ns (ktime_get())
 * @last: end of the last accounted interval, ns (ktime_get())
 * @debt: stall still owed, ns; negative: stalled too long (a WFI wakes
 *	  late), to be taken off the next debts
 * @work_ns: work accounted to user tasks, ns
 * @stall_ns: stall paid, ns
 * @owed_ns: stall owed for @work_ns, ns: @stall_ns / @owed_ns is how much
 *	     of the dilation was achieved
 * @kthread_ns: work of kernel threads (not slowed), ns
 * @dropped_ns: debt not paid: of kernel threads' work, and any debt past
 *		VCS_MAX_DEBT_NS, ns
 * @stalls: number of stalls
 *
 * Only the CPU itself touches its state, with interrupts disabled.
 */
struct vcs_cpu {
	struct clk *clk;
	unsigned long rate_max;
	struct hrtimer tick;
	struct hrtimer wake;
	struct task_struct *queued;
	bool busy;
	bool user;
	bool stalling;
	u64 deadline;
	u64 last;
	s64 debt;
	u64 work_ns;
	u64 stall_ns;
	u64 owed_ns;
	u64 kthread_ns;
	u64 dropped_ns;
	unsigned long stalls;
};

static DEFINE_PER_CPU(struct vcs_cpu, vcs_cpus);
static enum vcs_stall_mode vcs_stall_mode = VCS_STALL_WFI;
static bool vcs_enabled = true;
static u32 vcs_period_us = VCS_PERIOD_US;

static ktime_t vcs_period(void)
{
	return ns_to_ktime((u64)NSEC_PER_USEC *
			   clamp_t(u32, READ_ONCE(vcs_period_us),
				   VCS_PERIOD_MIN_US, VCS_PERIOD_MAX_US));
}

/* Speed of @cpu now, in capacity units: capacity * f / fmax. */
static unsigned long vcs_speed(int cpu, struct vcs_cpu *vc)
{
	u64 rate = clk_hw_get_rate(__clk_get_hw(vc->clk));

	return div64_u64(arch_scale_cpu_capacity(cpu) * rate, vc->rate_max);
}

/* Account the interval since the last call: work, and the debt it makes. */
static void vcs_account(int cpu, struct vcs_cpu *vc, u64 now)
{
	unsigned long speed;
	u64 delta = now - vc->last, owe;

	vc->last = now;
	if (!vc->busy || vc->stalling || !READ_ONCE(vcs_enabled))
		return;

	speed = vcs_speed(cpu, vc);
	if (!speed)
		speed = 1;
	if (speed >= SCHED_CAPACITY_SCALE)
		speed = SCHED_CAPACITY_SCALE;

	if (!vc->user) {
		vc->kthread_ns += delta;
		vc->dropped_ns += div64_u64(delta * (SCHED_CAPACITY_SCALE - speed),
					    speed);
		return;
	}

	owe = div64_u64(delta * (SCHED_CAPACITY_SCALE - speed), speed);
	vc->work_ns += delta;
	vc->owed_ns += owe;
	vc->debt += owe;
	if (vc->debt > (s64)VCS_MAX_DEBT_NS) {
		vc->dropped_ns += vc->debt - VCS_MAX_DEBT_NS;
		vc->debt = VCS_MAX_DEBT_NS;
	}
}

/*
 * Pay the debt of this CPU, from @start on, in the context of the running
 * user task; IRQs and preemption off, so that the CPU and its state stay
 * ours. The stall ends early when something else must run, and the rest
 * of the debt is paid later.
 */
static void vcs_pay(struct vcs_cpu *vc, u64 start)
{
	u64 now, deadline;

	if (vc->debt < VCS_MIN_STALL_NS)
		return;

	deadline = start + vc->debt;
	vc->deadline = deadline;
	vc->stalling = true;
	if (vcs_stall_mode == VCS_STALL_WFI)
		hrtimer_start(&vc->wake, ns_to_ktime(deadline),
			      HRTIMER_MODE_ABS_PINNED_HARD);
	for (now = start; now < deadline && !need_resched();
	     now = ktime_get_ns()) {
		/* WFI wakes on a pending interrupt even while it is masked. */
		if (vcs_stall_mode == VCS_STALL_WFI)
			wfi();
		else
			cpu_relax();
		/* Let the interrupt that woke us (or any other) run. */
		local_irq_enable();
		local_irq_disable();
	}
	vc->stalling = false;
	if (vcs_stall_mode == VCS_STALL_WFI)
		hrtimer_try_to_cancel(&vc->wake);
	/* The next work interval is a whole period from here. */
	hrtimer_start(&vc->tick, ktime_add(ns_to_ktime(now), vcs_period()),
		      HRTIMER_MODE_ABS_PINNED_HARD);

	/* Closed loop: what was paid is measured, over or under the debt. */
	vc->debt = max_t(s64, vc->debt - (s64)(now - start), -VCS_MAX_CREDIT_NS);
	vc->stall_ns += now - start;
	vc->stalls++;
	vc->last = now;
}

/*
 * The task_work queued by the tick: pay this CPU's debt (the one we run on
 * now, not necessarily the one that asked) on the way back to user space.
 */
static void vcs_stall(struct callback_head *head)
{
	struct vcs_cpu *vc;
	u64 start;

	kfree(head);
	preempt_disable();
	local_irq_disable();
	vc = this_cpu_ptr(&vcs_cpus);
	if (vc->queued == current)
		vc->queued = NULL;
	start = ktime_get_ns();
	/*
	 * The way here from the timer (its callback, IRQ exit, task_work) is
	 * work: the reference, a CPU at full speed, spends it too, as run
	 * time of its task. Left out, it made a periodic task's util a few
	 * percent lower at low speeds.
	 */
	vcs_account(smp_processor_id(), vc, start);
	vcs_pay(vc, start);
	local_irq_enable();
	preempt_enable();
}

/*
 * A user task enters a system call: it pays what it owes first, as its
 * work before the call would have taken that much longer. A task about to
 * sleep (a periodic task's nanosleep) so pays its own debt, exactly, and
 * does not leave it to the next task on this CPU.
 */
static void vcs_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct vcs_cpu *vc;
	unsigned long flags;
	u64 now;

	local_irq_save(flags);
	vc = this_cpu_ptr(&vcs_cpus);
	if (vc->busy && vc->user && !vc->stalling) {
		now = ktime_get_ns();
		vcs_account(smp_processor_id(), vc, now);
		vcs_pay(vc, now);
	}
	local_irq_restore(flags);
}

/*
 * Have @p, the user task running on this CPU, pay the debt on its way back
 * to user space. Each request is its own task_work: a task asked to pay
 * may block in the kernel for long, and the next task on this CPU must be
 * asked in the meantime.
 */
static void vcs_queue_stall(struct vcs_cpu *vc, struct task_struct *p)
{
	struct callback_head *work;

	if (vc->debt < VCS_MIN_STALL_NS || !vc->user || vc->queued == p ||
	    (p->flags & PF_EXITING))
		return;

	work = kmalloc(sizeof(*work), GFP_ATOMIC);
	if (!work)
		return;
	init_task_work(work, vcs_stall);
	if (task_work_add(p, work, TWA_RESUME)) {
		kfree(work);
		return;
	}
	vc->queued = p;
}

static enum hrtimer_restart vcs_tick(struct hrtimer *t)
{
	struct vcs_cpu *vc = container_of(t, struct vcs_cpu, tick);
	int cpu = smp_processor_id();

	/* No work while stalling: no wakeup before the stall's end either. */
	if (vc->stalling) {
		hrtimer_set_expires(t, ktime_add(ns_to_ktime(max(vc->deadline,
								 ktime_get_ns())),
						 vcs_period()));
		return HRTIMER_RESTART;
	}
	vcs_account(cpu, vc, ktime_get_ns());
	vcs_queue_stall(vc, current);

	if (!vc->busy)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, vcs_period());
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
	int cpu = smp_processor_id();
	bool was_busy = vc->busy;
	u64 now = ktime_get_ns();

	vcs_account(cpu, vc, now);
	/* A task that leaves the CPU owes nothing more here. */
	if (vc->queued == prev)
		vc->queued = NULL;
	vc->busy = !is_idle_task(next);
	vc->user = next->mm && !(next->flags & PF_KTHREAD);

	if (vc->busy && !was_busy)
		hrtimer_start(&vc->tick, ktime_add(ns_to_ktime(now), vcs_period()),
			      HRTIMER_MODE_ABS_PINNED_HARD);
	else if (!vc->busy && was_busy)
		hrtimer_try_to_cancel(&vc->tick);
}

static int vcs_stats_show(struct seq_file *s, void *unused)
{
	int cpu;

	seq_puts(s, "cpu speed work_ns stall_ns kthread_ns dropped_ns debt_ns stalls owed_ns\n");
	for_each_possible_cpu(cpu) {
		struct vcs_cpu *vc = per_cpu_ptr(&vcs_cpus, cpu);

		if (!vc->clk)
			continue;
		seq_printf(s, "%d %lu %llu %llu %llu %llu %lld %lu %llu\n", cpu,
			   vcs_speed(cpu, vc), READ_ONCE(vc->work_ns),
			   READ_ONCE(vc->stall_ns), READ_ONCE(vc->kthread_ns),
			   READ_ONCE(vc->dropped_ns), READ_ONCE(vc->debt),
			   READ_ONCE(vc->stalls), READ_ONCE(vc->owed_ns));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcs_stats);

static ssize_t vcs_mode_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[8];
	int len = scnprintf(buf, sizeof(buf), "%s\n",
			    vcs_stall_mode_names[vcs_stall_mode]);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t vcs_mode_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[8] = {};
	int mode;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	mode = sysfs_match_string(vcs_stall_mode_names, buf);
	if (mode < 0)
		return mode;
	WRITE_ONCE(vcs_stall_mode, mode);
	return count;
}

static const struct file_operations vcs_mode_fops = {
	.read = vcs_mode_read,
	.write = vcs_mode_write,
	.llseek = default_llseek,
};

static int vcs_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct dentry *dir;
	int cpu, ret;

	for_each_possible_cpu(cpu) {
		struct vcs_cpu *vc = per_cpu_ptr(&vcs_cpus, cpu);
		struct device_node *np = of_cpu_device_node_get(cpu);
		long max;

		if (!np)
			return dev_err_probe(dev, -ENODEV, "CPU%d: no DT node\n", cpu);
		vc->clk = of_clk_get(np, 0);
		of_node_put(np);
		if (IS_ERR(vc->clk)) {
			ret = PTR_ERR(vc->clk);
			vc->clk = NULL;
			return dev_err_probe(dev, ret, "CPU%d: no cluster clock\n", cpu);
		}
		max = clk_round_rate(vc->clk, ULONG_MAX);
		if (max <= 0)
			return dev_err_probe(dev, -EINVAL,
					     "CPU%d: cannot read the top clock rate\n", cpu);
		vc->rate_max = max;

		hrtimer_init(&vc->tick, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
		vc->tick.function = vcs_tick;
		hrtimer_init(&vc->wake, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
		vc->wake.function = vcs_wake;
		vc->last = ktime_get_ns();
	}

	ret = register_trace_sched_switch(vcs_sched_switch, NULL);
	if (ret)
		return dev_err_probe(dev, ret, "cannot hook sched_switch\n");
	ret = register_trace_sys_enter(vcs_sys_enter, NULL);
	if (ret) {
		unregister_trace_sched_switch(vcs_sched_switch, NULL);
		tracepoint_synchronize_unregister();
		return dev_err_probe(dev, ret, "cannot hook sys_enter\n");
	}

	dir = debugfs_create_dir("virt_cpu_speed", NULL);
	debugfs_create_file("stats", 0444, dir, NULL, &vcs_stats_fops);
	debugfs_create_file("stall_mode", 0644, dir, NULL, &vcs_mode_fops);
	debugfs_create_bool("enable", 0644, dir, &vcs_enabled);
	debugfs_create_u32("period_us", 0644, dir, &vcs_period_us);

	dev_info(dev, "CPU speed follows capacity and cluster clock rate (stall: %s)\n",
		 vcs_stall_mode_names[vcs_stall_mode]);
	return 0;
}

static const struct of_device_id vcs_of_match[] = {
	{ .compatible = "linux,virt-cpu-speed" },
	{ }
};

static struct platform_driver vcs_driver = {
	.probe = vcs_probe,
	.driver = {
		.name = "virt-cpu-speed",
		.of_match_table = vcs_of_match,
		.suppress_bind_attrs = true,
	},
};
builtin_platform_driver(vcs_driver);
