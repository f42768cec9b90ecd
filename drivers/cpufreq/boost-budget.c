// SPDX-License-Identifier: GPL-2.0
/*
 * Load-aware boost budget: a perf domain may use its boost OPPs only while
 * the Energy Model's power of its CPUs at that OPP fits a budget.
 *
 * The idea is that of LAB (Samsung's load-aware boost governor for the
 * Exynos4412): one busy core at a boost OPP stays inside the chip's power
 * and thermal budget, all of them do not. cpufreq's boost (OPPs marked
 * turbo-mode) is all or nothing, DTPM caps a perf domain by the power of
 * all its online CPUs, and the thermal power allocator grants more to
 * fewer busy CPUs only while it throttles. This adds the missing policy:
 *
 *  - every period_ms, for each cpufreq policy with boost frequencies and
 *    an Energy Model, the power of its online CPUs at each boost state is
 *    estimated as the EM does (em_cpu_energy()): a CPU whose util is at
 *    least the state's performance draws the state's power, a less busy
 *    one its share of it (util from sched_cpu_util(), capacity units);
 *  - the highest boost state whose power fits the budget, or else the
 *    highest non-boost state, becomes the policy's maximum through a
 *    frequency QoS request. cpufreq turns a maximum below the capacity's
 *    reference frequency into cpufreq pressure, so the capacity the
 *    scheduler sees follows the limit (with the reference at the highest
 *    OPP, boost OPPs included: drivers/base/arch_topology.c);
 *  - the default budget comes from the EM: the power of all the domain's
 *    CPUs at its highest non-boost state. budget_uw= sets another one,
 *    enable=0 removes the limit.
 *
 * Nothing runs in the scheduler's paths: the estimate is a delayed work,
 * the limit cpufreq's own QoS. Policies are found through the cpufreq
 * policy notifier; one with no boost frequencies is left alone.
 */

#define pr_fmt(fmt) "boost-budget: " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "boost-budget.h"

static bool enable = true;
static unsigned int budget_uw;
static unsigned int period_ms = 10;

struct boost_budget {
	struct list_head node;
	struct cpufreq_policy *policy;
	struct freq_qos_request max_req;
	/* the highest frequency without CPUFREQ_BOOST_FREQ, kHz */
	unsigned int nonboost_khz;
	/* the maximum last requested, kHz */
	unsigned int max_khz;
	/* the online CPUs' util at the last update, capacity units */
	unsigned long util[];
};

static LIST_HEAD(budgets);
static DEFINE_MUTEX(budgets_lock);
static void boost_budget_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(boost_budget_work, boost_budget_workfn);

/**
 * boost_budget_power() - The EM power of CPUs at one perf state
 * @ps: the perf state (performance in capacity units, power in uW)
 * @util: each CPU's util, capacity units out of 1024
 * @nr_cpus: the number of entries in @util
 *
 * A CPU whose util is at least the state's performance runs all the time
 * and draws the state's power; a less busy one draws util / performance
 * of it, as em_cpu_energy() has it.
 *
 * Return: the power of the CPUs at @ps, uW.
 */
VISIBLE_IF_KUNIT u64 boost_budget_power(const struct em_perf_state *ps,
					const unsigned long *util, int nr_cpus)
{
	u64 power = 0;
	int i;

	if (!ps->performance)
		return 0;
	for (i = 0; i < nr_cpus; i++)
		power += div64_ul((u64)ps->power * min(util[i], ps->performance),
				  ps->performance);
	return power;
}
EXPORT_SYMBOL_IF_KUNIT(boost_budget_power);

/**
 * boost_budget_max_freq() - The highest frequency a perf domain may use
 * @table: the domain's EM perf states, in ascending order
 * @nr_states: the number of states
 * @nonboost_khz: the highest frequency that is not a boost OPP, kHz
 * @util: its online CPUs' util, capacity units out of 1024
 * @nr_cpus: the number of entries in @util
 * @budget: the power budget, uW
 *
 * Return: the frequency (kHz) of the highest state above @nonboost_khz
 * whose power (boost_budget_power()) fits @budget; @nonboost_khz when
 * none does.
 */
VISIBLE_IF_KUNIT unsigned int
boost_budget_max_freq(const struct em_perf_state *table, int nr_states,
		      unsigned int nonboost_khz, const unsigned long *util,
		      int nr_cpus, u64 budget)
{
	int i;

	for (i = nr_states - 1; i >= 0; i--) {
		if (table[i].frequency <= nonboost_khz)
			break;
		if (boost_budget_power(&table[i], util, nr_cpus) <= budget)
			return table[i].frequency;
	}
	return nonboost_khz;
}
EXPORT_SYMBOL_IF_KUNIT(boost_budget_max_freq);

/**
 * boost_budget_default() - The default budget of a perf domain
 * @table: the domain's EM perf states, in ascending order
 * @nr_states: the number of states
 * @nonboost_khz: the highest frequency that is not a boost OPP, kHz
 * @nr_cpus: the number of CPUs of the domain
 *
 * Return: the power of @nr_cpus CPUs at the highest state not above
 * @nonboost_khz, uW; 0 if there is none.
 */
VISIBLE_IF_KUNIT u64 boost_budget_default(const struct em_perf_state *table,
					  int nr_states,
					  unsigned int nonboost_khz,
					  int nr_cpus)
{
	int i;

	for (i = nr_states - 1; i >= 0; i--)
		if (table[i].frequency <= nonboost_khz)
			return (u64)table[i].power * nr_cpus;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(boost_budget_default);

/* The highest frequency of @policy that is a boost OPP (0: none), kHz. */
static unsigned int policy_freqs(struct cpufreq_policy *policy,
				 unsigned int *nonboost_khz)
{
	struct cpufreq_frequency_table *pos;
	unsigned int boost = 0, plain = 0;

	if (!policy->freq_table)
		return 0;
	cpufreq_for_each_valid_entry(pos, policy->freq_table) {
		if (pos->flags & CPUFREQ_BOOST_FREQ)
			boost = max(boost, pos->frequency);
		else
			plain = max(plain, pos->frequency);
	}
	*nonboost_khz = plain;
	return plain ? boost : 0;
}

/* The limit of one policy, from its EM and its CPUs' util now. */
static void boost_budget_update(struct boost_budget *bb)
{
	struct cpufreq_policy *policy = bb->policy;
	struct em_perf_state *table;
	struct em_perf_domain *pd;
	unsigned int max_khz;
	int cpu, n = 0;
	u64 budget;

	pd = em_cpu_get(cpumask_first(policy->related_cpus));
	if (!pd)
		return;	/* the EM comes after the policy */
	for_each_cpu_and(cpu, policy->related_cpus, cpu_online_mask)
		bb->util[n++] = sched_cpu_util(cpu);

	rcu_read_lock();
	table = em_perf_state_from_pd(pd);
	budget = budget_uw ? budget_uw :
		 boost_budget_default(table, pd->nr_perf_states,
				      bb->nonboost_khz,
				      cpumask_weight(policy->related_cpus));
	max_khz = boost_budget_max_freq(table, pd->nr_perf_states,
					bb->nonboost_khz, bb->util, n, budget);
	rcu_read_unlock();

	if (max_khz != bb->max_khz) {
		bb->max_khz = max_khz;
		freq_qos_update_request(&bb->max_req, max_khz);
	}
}

static void boost_budget_workfn(struct work_struct *work)
{
	struct boost_budget *bb;

	mutex_lock(&budgets_lock);
	list_for_each_entry(bb, &budgets, node) {
		if (READ_ONCE(enable)) {
			boost_budget_update(bb);
		} else if (bb->max_khz != FREQ_QOS_MAX_DEFAULT_VALUE) {
			bb->max_khz = FREQ_QOS_MAX_DEFAULT_VALUE;
			freq_qos_update_request(&bb->max_req, bb->max_khz);
		}
	}
	if (!list_empty(&budgets))
		queue_delayed_work(system_power_efficient_wq, &boost_budget_work,
				   msecs_to_jiffies(max(READ_ONCE(period_ms), 1U)));
	mutex_unlock(&budgets_lock);
}

static int boost_budget_add(struct cpufreq_policy *policy)
{
	struct boost_budget *bb;
	unsigned int nonboost_khz;
	int ret;

	if (!policy_freqs(policy, &nonboost_khz))
		return 0;
	bb = kzalloc(struct_size(bb, util, cpumask_weight(policy->related_cpus)),
		     GFP_KERNEL);
	if (!bb)
		return -ENOMEM;
	bb->policy = policy;
	bb->nonboost_khz = nonboost_khz;
	bb->max_khz = FREQ_QOS_MAX_DEFAULT_VALUE;
	ret = freq_qos_add_request(&policy->constraints, &bb->max_req,
				   FREQ_QOS_MAX, bb->max_khz);
	if (ret < 0) {
		kfree(bb);
		return ret;
	}
	mutex_lock(&budgets_lock);
	list_add(&bb->node, &budgets);
	mod_delayed_work(system_power_efficient_wq, &boost_budget_work, 0);
	mutex_unlock(&budgets_lock);
	pr_info("CPUs %*pbl: boost OPPs above %u kHz only within the budget\n",
		cpumask_pr_args(policy->related_cpus), nonboost_khz);
	return 0;
}

static void boost_budget_remove(struct cpufreq_policy *policy)
{
	struct boost_budget *bb, *tmp;

	mutex_lock(&budgets_lock);
	list_for_each_entry_safe(bb, tmp, &budgets, node) {
		if (bb->policy != policy)
			continue;
		list_del(&bb->node);
		freq_qos_remove_request(&bb->max_req);
		kfree(bb);
	}
	mutex_unlock(&budgets_lock);
}

static int boost_budget_notifier(struct notifier_block *nb,
				 unsigned long event, void *data)
{
	struct cpufreq_policy *policy = data;

	int ret;

	if (event == CPUFREQ_CREATE_POLICY) {
		ret = boost_budget_add(policy);
		if (ret)
			pr_err("CPUs %*pbl: no boost budget (error %d): boost OPPs unlimited\n",
			       cpumask_pr_args(policy->related_cpus), ret);
	} else if (event == CPUFREQ_REMOVE_POLICY) {
		boost_budget_remove(policy);
	}
	return NOTIFY_OK;
}

static struct notifier_block boost_budget_nb = {
	.notifier_call = boost_budget_notifier,
};

module_param(enable, bool, 0644);
MODULE_PARM_DESC(enable, "Limit boost OPPs by the budget (default: Y)");
module_param(budget_uw, uint, 0644);
MODULE_PARM_DESC(budget_uw,
		 "Power budget of a perf domain's CPUs, uW (default 0: all its CPUs at its highest non-boost OPP, from the EM)");
module_param(period_ms, uint, 0644);
MODULE_PARM_DESC(period_ms, "How often the limit is updated, ms (default: 10)");

static int __init boost_budget_init(void)
{
	return cpufreq_register_notifier(&boost_budget_nb,
					 CPUFREQ_POLICY_NOTIFIER);
}
subsys_initcall(boost_budget_init);
