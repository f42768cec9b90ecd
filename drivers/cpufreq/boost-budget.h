/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load-aware boost budget: what its KUnit tests call.
 */
#ifndef _CPUFREQ_BOOST_BUDGET_H
#define _CPUFREQ_BOOST_BUDGET_H

#include <linux/energy_model.h>
#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
u64 boost_budget_power(const struct em_perf_state *ps,
		       const unsigned long *util, int nr_cpus);
unsigned int boost_budget_max_freq(const struct em_perf_state *table,
				   int nr_states, unsigned int nonboost_khz,
				   const unsigned long *util, int nr_cpus,
				   u64 budget);
u64 boost_budget_default(const struct em_perf_state *table, int nr_states,
			 unsigned int nonboost_khz, int nr_cpus);
#endif

#endif /* _CPUFREQ_BOOST_BUDGET_H */
