// SPDX-License-Identifier: GPL-2.0
/*
 * Trace events for the scheduler's bare EAS tracepoints
 *
 * The scheduler marks where Energy-Aware Scheduling decides with bare
 * tracepoints (DECLARE_TRACE in include/trace/events/sched.h): no trace
 * event, so that no tracefs ABI grows from the scheduler's internals, and
 * analysis tools attach their own module to them. This attaches to four of
 * them and emits trace events, in tracefs events/sched_eas/:
 *
 *  - sched_overutilized, from sched_overutilized_tp: the root domain's
 *    overutilized flag each time the scheduler sets it, and the root
 *    domain's CPUs. While it is set, find_energy_efficient_cpu() is not
 *    used and load balancing spreads tasks: the periods when EAS is not in
 *    charge, and so the first thing to look at when it saves less energy
 *    than expected.
 *  - sched_compute_energy, from sched_compute_energy_tp: each energy
 *    estimate that find_energy_efficient_cpu() makes for a task and a
 *    candidate CPU.
 *  - sched_pelt_task, from pelt_se_tp: a task's PELT signals (util_avg,
 *    load_avg, runnable_avg) at each update, with the PELT clock of the
 *    update: what EAS and schedutil see of a task, and how fast it follows
 *    the task's behaviour (sched_pelt_multiplier=).
 *  - sched_cpu_capacity, from sched_cpu_capacity_tp: a CPU's capacity as
 *    load balancing updates it, with the cpufreq and hardware pressures
 *    it takes off: whether a cap on a policy's frequency (thermal, a boost
 *    limit, scaling_max_freq) reached the scheduler.
 *
 * Each probe is attached to its tracepoint only while its event is enabled
 * in tracefs (TRACE_EVENT_FN's reg and unreg, through a work item: the
 * event is recording a moment after it is enabled): disabled, they cost
 * the scheduler nothing.
 */
#include <linux/mmu_context.h>
#include <linux/workqueue.h>

#include "sched.h"
#include "pelt.h"

#define CREATE_TRACE_POINTS
#include <trace/events/sched_eas.h>

static void sched_eas_overutilized(void *data, struct root_domain *rd,
				   bool overutilized)
{
	trace_sched_overutilized(overutilized, rd->span);
}

static void sched_eas_compute_energy(void *data, struct task_struct *p,
				     int dst_cpu, unsigned long energy,
				     unsigned long max_util,
				     unsigned long busy_time)
{
	trace_sched_compute_energy(p, dst_cpu, energy, max_util, busy_time);
}

static void sched_eas_pelt_se(void *data, struct sched_entity *se)
{
	if (!entity_is_task(se))
		return;
	trace_sched_pelt_task(task_of(se), cpu_of(rq_of(cfs_rq_of(se))),
			      &se->avg);
}

static void sched_eas_cpu_capacity(void *data, struct rq *rq)
{
	int cpu = cpu_of(rq);

	trace_sched_cpu_capacity(cpu, rq->cpu_capacity,
				 arch_scale_cpu_capacity(cpu),
				 cpufreq_get_pressure(cpu), hw_load_avg(rq));
}

static int sched_eas_attach_overutilized(void)
{
	return register_trace_sched_overutilized_tp(sched_eas_overutilized, NULL);
}

static void sched_eas_detach_overutilized(void)
{
	unregister_trace_sched_overutilized_tp(sched_eas_overutilized, NULL);
}

static int sched_eas_attach_compute_energy(void)
{
	return register_trace_sched_compute_energy_tp(sched_eas_compute_energy,
						      NULL);
}

static void sched_eas_detach_compute_energy(void)
{
	unregister_trace_sched_compute_energy_tp(sched_eas_compute_energy,
						 NULL);
}

static int sched_eas_attach_pelt_task(void)
{
	return register_trace_pelt_se_tp(sched_eas_pelt_se, NULL);
}

static void sched_eas_detach_pelt_task(void)
{
	unregister_trace_pelt_se_tp(sched_eas_pelt_se, NULL);
}

static int sched_eas_attach_cpu_capacity(void)
{
	return register_trace_sched_cpu_capacity_tp(sched_eas_cpu_capacity,
						    NULL);
}

static void sched_eas_detach_cpu_capacity(void)
{
	unregister_trace_sched_cpu_capacity_tp(sched_eas_cpu_capacity, NULL);
}

enum sched_eas_event {
	SCHED_EAS_OVERUTILIZED,
	SCHED_EAS_COMPUTE_ENERGY,
	SCHED_EAS_PELT_TASK,
	SCHED_EAS_CPU_CAPACITY,
	SCHED_EAS_NR_EVENTS,
};

static const struct {
	const char *name;
	int (*attach)(void);
	void (*detach)(void);
} sched_eas_probes[SCHED_EAS_NR_EVENTS] = {
	[SCHED_EAS_OVERUTILIZED] = { "sched_overutilized",
		sched_eas_attach_overutilized, sched_eas_detach_overutilized },
	[SCHED_EAS_COMPUTE_ENERGY] = { "sched_compute_energy",
		sched_eas_attach_compute_energy, sched_eas_detach_compute_energy },
	[SCHED_EAS_PELT_TASK] = { "sched_pelt_task",
		sched_eas_attach_pelt_task, sched_eas_detach_pelt_task },
	[SCHED_EAS_CPU_CAPACITY] = { "sched_cpu_capacity",
		sched_eas_attach_cpu_capacity, sched_eas_detach_cpu_capacity },
};

/*
 * The tracing core calls an event's reg and unreg with tracepoints_mutex
 * held, and registering a probe on another tracepoint takes it too: the
 * probes are attached and detached by a work item instead, which makes
 * the attached probes match the enabled events.
 */
static DECLARE_BITMAP(sched_eas_enabled, SCHED_EAS_NR_EVENTS);
static DECLARE_BITMAP(sched_eas_attached, SCHED_EAS_NR_EVENTS);
static DEFINE_MUTEX(sched_eas_probes_lock);

static void sched_eas_sync_probes(struct work_struct *work)
{
	int i, ret;

	mutex_lock(&sched_eas_probes_lock);
	for (i = 0; i < SCHED_EAS_NR_EVENTS; i++) {
		bool on = test_bit(i, sched_eas_enabled);

		if (on == test_bit(i, sched_eas_attached))
			continue;
		if (on) {
			ret = sched_eas_probes[i].attach();
			if (ret) {
				pr_warn("sched_eas: cannot attach %s to its tracepoint: %d\n",
					sched_eas_probes[i].name, ret);
				continue;
			}
			set_bit(i, sched_eas_attached);
		} else {
			sched_eas_probes[i].detach();
			clear_bit(i, sched_eas_attached);
		}
	}
	mutex_unlock(&sched_eas_probes_lock);
}

static DECLARE_WORK(sched_eas_sync_work, sched_eas_sync_probes);

static int sched_eas_enable(enum sched_eas_event event)
{
	set_bit(event, sched_eas_enabled);
	schedule_work(&sched_eas_sync_work);
	return 0;
}

static void sched_eas_disable(enum sched_eas_event event)
{
	clear_bit(event, sched_eas_enabled);
	schedule_work(&sched_eas_sync_work);
}

/**
 * sched_eas_overutilized_reg() - attach the sched_overutilized event
 *
 * Called by the tracing core when the event is enabled; the probe is
 * attached to sched_overutilized_tp by a work item just after.
 *
 * Return: 0.
 */
int sched_eas_overutilized_reg(void)
{
	return sched_eas_enable(SCHED_EAS_OVERUTILIZED);
}

/**
 * sched_eas_overutilized_unreg() - detach the sched_overutilized event
 *
 * Called by the tracing core when the event is disabled; the probe is
 * detached by a work item just after.
 */
void sched_eas_overutilized_unreg(void)
{
	sched_eas_disable(SCHED_EAS_OVERUTILIZED);
}

/**
 * sched_eas_compute_energy_reg() - attach the sched_compute_energy event
 *
 * Called by the tracing core when the event is enabled; the probe is
 * attached to sched_compute_energy_tp by a work item just after.
 *
 * Return: 0.
 */
int sched_eas_compute_energy_reg(void)
{
	return sched_eas_enable(SCHED_EAS_COMPUTE_ENERGY);
}

/**
 * sched_eas_compute_energy_unreg() - detach the sched_compute_energy event
 *
 * Called by the tracing core when the event is disabled; the probe is
 * detached by a work item just after.
 */
void sched_eas_compute_energy_unreg(void)
{
	sched_eas_disable(SCHED_EAS_COMPUTE_ENERGY);
}

/**
 * sched_eas_pelt_task_reg() - attach the sched_pelt_task event
 *
 * Called by the tracing core when the event is enabled; the probe is
 * attached to pelt_se_tp by a work item just after.
 *
 * Return: 0.
 */
int sched_eas_pelt_task_reg(void)
{
	return sched_eas_enable(SCHED_EAS_PELT_TASK);
}

/**
 * sched_eas_pelt_task_unreg() - detach the sched_pelt_task event
 *
 * Called by the tracing core when the event is disabled; the probe is
 * detached by a work item just after.
 */
void sched_eas_pelt_task_unreg(void)
{
	sched_eas_disable(SCHED_EAS_PELT_TASK);
}

/**
 * sched_eas_cpu_capacity_reg() - attach the sched_cpu_capacity event
 *
 * Called by the tracing core when the event is enabled; the probe is
 * attached to sched_cpu_capacity_tp by a work item just after.
 *
 * Return: 0.
 */
int sched_eas_cpu_capacity_reg(void)
{
	return sched_eas_enable(SCHED_EAS_CPU_CAPACITY);
}

/**
 * sched_eas_cpu_capacity_unreg() - detach the sched_cpu_capacity event
 *
 * Called by the tracing core when the event is disabled; the probe is
 * detached by a work item just after.
 */
void sched_eas_cpu_capacity_unreg(void)
{
	sched_eas_disable(SCHED_EAS_CPU_CAPACITY);
}
