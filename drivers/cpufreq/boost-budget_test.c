// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the load-aware boost budget's choice.
 *
 * The EM is the Odroid-XU4's Cortex-A15 perf domain from 1.5 GHz up, as
 * the kernel computes it from the board's DTB (dynamic-power-coefficient
 * 310, opp-microvolt; tools/power/eas/eas-em compute): 1.9 and 2.0 GHz are
 * its boost OPPs. The default budget is its 4 CPUs at 1.8 GHz, 4 x 853834
 * = 3415336 uW; one CPU at 2.0 GHz draws 1067233 uW, so 3 busy CPUs fit
 * (3201699 uW) and 4 do not, at 2.0 GHz (4268932) nor at 1.9 GHz
 * (4 x 938067 = 3752268).
 */

#include <kunit/test.h>
#include <linux/energy_model.h>
#include <linux/kernel.h>
#include <linux/module.h>

#include "boost-budget.h"

#define NONBOOST_KHZ	1800000

static const struct em_perf_state a15[] = {
	{ .frequency = 1500000, .performance = 768,  .power = 562650 },
	{ .frequency = 1600000, .performance = 819,  .power = 775000 },
	{ .frequency = 1700000, .performance = 870,  .power = 823437 },
	{ .frequency = 1800000, .performance = 921,  .power = 853834 },
	{ .frequency = 1900000, .performance = 972,  .power = 938067 },
	{ .frequency = 2000000, .performance = 1024, .power = 1067233 },
};

static unsigned int choose(const unsigned long *util, int nr_cpus, u64 budget)
{
	return boost_budget_max_freq(a15, ARRAY_SIZE(a15), NONBOOST_KHZ,
				     util, nr_cpus, budget);
}

static u64 default_budget(void)
{
	return boost_budget_default(a15, ARRAY_SIZE(a15), NONBOOST_KHZ, 4);
}

static void boost_budget_test_default(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, default_budget(), 3415336ULL);
	/* no state at or below the non-boost maximum: no budget */
	KUNIT_EXPECT_EQ(test, boost_budget_default(a15, ARRAY_SIZE(a15),
						   1000000, 4), 0ULL);
}

static void boost_budget_test_power(struct kunit *test)
{
	unsigned long busy[] = { 1024, 1024 };
	unsigned long part[] = { 486, 0 };
	unsigned long over[] = { 2048 };

	/* a CPU busy at the state's performance or more draws its power */
	KUNIT_EXPECT_EQ(test, boost_budget_power(&a15[5], busy, 2), 2134466ULL);
	KUNIT_EXPECT_EQ(test, boost_budget_power(&a15[3], busy, 2), 1707668ULL);
	KUNIT_EXPECT_EQ(test, boost_budget_power(&a15[5], over, 1), 1067233ULL);
	/* a less busy one its share: 853834 * 486 / 921 */
	KUNIT_EXPECT_EQ(test, boost_budget_power(&a15[3], part, 2), 450557ULL);
}

/* 1, 2, 3 busy A15s boost to 2.0 GHz, 4 stay at 1.8 GHz. */
static void boost_budget_test_busy_cpus(struct kunit *test)
{
	unsigned long util[4] = { 0 };
	int n;

	for (n = 0; n <= 3; n++) {
		if (n)
			util[n - 1] = 1024;
		KUNIT_EXPECT_EQ_MSG(test, choose(util, 4, default_budget()),
				    2000000U, "%d busy CPUs", n);
	}
	util[3] = 1024;
	KUNIT_EXPECT_EQ(test, choose(util, 4, default_budget()), 1800000U);
}

/* Three busy CPUs and a fourth at 300: 2.0 GHz does not fit, 1.9 does. */
static void boost_budget_test_partly_busy(struct kunit *test)
{
	unsigned long util[] = { 1024, 1024, 1024, 300 };

	KUNIT_EXPECT_EQ(test, choose(util, 4, default_budget()), 1900000U);
}

/* Other budgets: 2 W lets two busy CPUs to 1.9 GHz only, 0 none. */
static void boost_budget_test_budget(struct kunit *test)
{
	unsigned long util[] = { 1024, 1024, 0, 0 };

	KUNIT_EXPECT_EQ(test, choose(util, 4, 2000000), 1900000U);
	KUNIT_EXPECT_EQ(test, choose(util, 4, 1800000), 1800000U);
	KUNIT_EXPECT_EQ(test, choose(util, 4, 0), 1800000U);
	/* only the online CPUs count: two, both busy */
	KUNIT_EXPECT_EQ(test, choose(util, 2, default_budget()), 2000000U);
}

/* A domain without boost states above the non-boost maximum keeps it. */
static void boost_budget_test_no_boost(struct kunit *test)
{
	unsigned long util[] = { 1024, 1024, 1024, 1024 };

	KUNIT_EXPECT_EQ(test, boost_budget_max_freq(a15, 4, NONBOOST_KHZ, util,
						    4, 0), 1800000U);
}

static struct kunit_case boost_budget_test_cases[] = {
	KUNIT_CASE(boost_budget_test_default),
	KUNIT_CASE(boost_budget_test_power),
	KUNIT_CASE(boost_budget_test_busy_cpus),
	KUNIT_CASE(boost_budget_test_partly_busy),
	KUNIT_CASE(boost_budget_test_budget),
	KUNIT_CASE(boost_budget_test_no_boost),
	{}
};

static struct kunit_suite boost_budget_test_suite = {
	.name = "cpufreq_boost_budget",
	.test_cases = boost_budget_test_cases,
};

kunit_test_suite(boost_budget_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the cpufreq load-aware boost budget");
MODULE_LICENSE("GPL");
