// SPDX-License-Identifier: GPL-2.0
/*
 * Trace events for the scheduler's bare EAS tracepoints
 *
 * The scheduler marks where Energy-Aware Scheduling decides with bare
 * tracepoints (DECLARE_TRACE in include/trace/events/sched.h): no trace
 * event, so that no tracefs ABI grows from the scheduler's internals, and
 * analysis tools attach their own module to them. This attaches to two of
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
 *
 * The events are disabled until enabled in tracefs. The probes run at
 * every hit of their tracepoints all the same, and return at once (a
 * static branch) while their event is disabled.
 */
#include <linux/init.h>
#include <linux/mmu_context.h>

#include "sched.h"

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

static int __init sched_eas_events_init(void)
{
	int ret;

	ret = register_trace_sched_overutilized_tp(sched_eas_overutilized, NULL);
	if (ret)
		goto err;
	ret = register_trace_sched_compute_energy_tp(sched_eas_compute_energy,
						     NULL);
	if (ret) {
		unregister_trace_sched_overutilized_tp(sched_eas_overutilized,
						       NULL);
		goto err;
	}
	return 0;
err:
	pr_err("sched_eas trace events: cannot attach to the tracepoints: %d\n",
	       ret);
	return ret;
}
late_initcall(sched_eas_events_init);
