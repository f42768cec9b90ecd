/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of Energy-Aware Scheduling, from the scheduler's bare
 * tracepoints (kernel/sched/eas_events.c)
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_eas

#if !defined(_TRACE_SCHED_EAS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_EAS_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

/*
 * Each event attaches to its bare tracepoint only while it is enabled
 * (kernel/sched/eas_events.c).
 */
int sched_eas_overutilized_reg(void);
void sched_eas_overutilized_unreg(void);
int sched_eas_compute_energy_reg(void);
void sched_eas_compute_energy_unreg(void);
int sched_eas_pelt_task_reg(void);
void sched_eas_pelt_task_unreg(void);
int sched_eas_cpu_capacity_reg(void);
void sched_eas_cpu_capacity_unreg(void);

/*
 * The root domain's overutilized flag, as the scheduler sets it: set at
 * enqueue or tick when a CPU of @span is overutilized, set or cleared by
 * load balancing at the top sched domain. Set, EAS does not place tasks.
 */
TRACE_EVENT_FN(sched_overutilized,
	       TP_PROTO(bool overutilized, const struct cpumask *span),
	       TP_ARGS(overutilized, span),
	       TP_STRUCT__entry(__field(bool, overutilized)
				__cpumask(span)),
	       TP_fast_assign(__entry->overutilized = overutilized;
			      __assign_cpumask(span, cpumask_bits(span));),
	       TP_printk("overutilized=%d span=%s", __entry->overutilized,
			 __get_cpumask(span)),
	       sched_eas_overutilized_reg, sched_eas_overutilized_unreg
);

/*
 * One energy estimate of find_energy_efficient_cpu(): the EM's energy of
 * @dst_cpu's perf domain with @p placed on @dst_cpu (in the EM's cost
 * units, not scaled), its CPUs' highest util (capacity units out of 1024)
 * and their summed util.
 */
TRACE_EVENT_FN(sched_compute_energy,
	       TP_PROTO(struct task_struct *p, int dst_cpu, unsigned long energy,
			unsigned long max_util, unsigned long busy_time),
	       TP_ARGS(p, dst_cpu, energy, max_util, busy_time),
	       TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
				__field(pid_t, pid)
				__field(int, dst_cpu)
				__field(unsigned long, energy)
				__field(unsigned long, max_util)
				__field(unsigned long, busy_time)),
	       TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			      __entry->pid = p->pid;
			      __entry->dst_cpu = dst_cpu;
			      __entry->energy = energy;
			      __entry->max_util = max_util;
			      __entry->busy_time = busy_time;),
	       TP_printk("comm=%s pid=%d dst_cpu=%d energy=%lu max_util=%lu busy_time=%lu",
			 __entry->comm, __entry->pid, __entry->dst_cpu,
			 __entry->energy, __entry->max_util, __entry->busy_time),
	       sched_eas_compute_energy_reg, sched_eas_compute_energy_unreg
);

/*
 * A task's PELT signals, each time the scheduler updates them (wakeup,
 * sleep, tick, migration): its CPU, its util_avg (capacity units out of
 * 1024, frequency and CPU invariant), its load_avg and runnable_avg, and
 * the PELT clock of the update (ns). Task entities only, not groups'.
 */
TRACE_EVENT_FN(sched_pelt_task,
	       TP_PROTO(struct task_struct *p, int cpu, const struct sched_avg *avg),
	       TP_ARGS(p, cpu, avg),
	       TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
				__field(pid_t, pid)
				__field(int, cpu)
				__field(unsigned long, util_avg)
				__field(unsigned long, load_avg)
				__field(unsigned long, runnable_avg)
				__field(u64, update_time)),
	       TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			      __entry->pid = p->pid;
			      __entry->cpu = cpu;
			      __entry->util_avg = avg->util_avg;
			      __entry->load_avg = avg->load_avg;
			      __entry->runnable_avg = avg->runnable_avg;
			      __entry->update_time = avg->last_update_time;),
	       TP_printk("comm=%s pid=%d cpu=%d util_avg=%lu load_avg=%lu runnable_avg=%lu update_time=%llu",
			 __entry->comm, __entry->pid, __entry->cpu,
			 __entry->util_avg, __entry->load_avg,
			 __entry->runnable_avg, __entry->update_time),
	       sched_eas_pelt_task_reg, sched_eas_pelt_task_unreg
);

/*
 * A CPU's capacity for CFS tasks, each time load balancing updates it
 * (update_cpu_capacity()), in capacity units out of 1024: @capacity, the
 * scheduler's (its original capacity less the larger of the two
 * pressures, less RT, deadline and IRQ time), @capacity_orig
 * (arch_scale_cpu_capacity(), the sysfs cpu_capacity), @cpufreq_pressure
 * (the capacity that cpufreq's limit on the policy's maximum frequency
 * removes, cpufreq_update_pressure()) and @hw_pressure (the PELT average
 * of the hardware pressure, hw_load_avg()). What the scheduler and EAS
 * take as the most a CPU can do while a frequency cap holds.
 */
TRACE_EVENT_FN(sched_cpu_capacity,
	       TP_PROTO(int cpu, unsigned long capacity,
			unsigned long capacity_orig,
			unsigned long cpufreq_pressure,
			unsigned long hw_pressure),
	       TP_ARGS(cpu, capacity, capacity_orig, cpufreq_pressure,
		       hw_pressure),
	       TP_STRUCT__entry(__field(int, cpu)
				__field(unsigned long, capacity)
				__field(unsigned long, capacity_orig)
				__field(unsigned long, cpufreq_pressure)
				__field(unsigned long, hw_pressure)),
	       TP_fast_assign(__entry->cpu = cpu;
			      __entry->capacity = capacity;
			      __entry->capacity_orig = capacity_orig;
			      __entry->cpufreq_pressure = cpufreq_pressure;
			      __entry->hw_pressure = hw_pressure;),
	       TP_printk("cpu=%d capacity=%lu capacity_orig=%lu cpufreq_pressure=%lu hw_pressure=%lu",
			 __entry->cpu, __entry->capacity,
			 __entry->capacity_orig, __entry->cpufreq_pressure,
			 __entry->hw_pressure),
	       sched_eas_cpu_capacity_reg, sched_eas_cpu_capacity_unreg
);

#endif /* _TRACE_SCHED_EAS_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
