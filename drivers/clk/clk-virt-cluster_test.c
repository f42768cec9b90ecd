// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the emulated CPU cluster clock
 *
 * Proves that a linux,virt-cluster-clock behaves as cpufreq-dt needs a
 * cluster PLL to: it starts at the top OPP rate, rounds any request to an
 * OPP rate (down, or up to the lowest), really changes rate on
 * clk_set_rate() so that clk_get_rate() reads back what was set, and
 * refuses rate tables and rate ranges it cannot honour. The rates are the
 * Exynos5422 Cortex-A7 OPPs (200..1400 MHz), given out of order.
 */

#include <kunit/clk.h>
#include <kunit/test.h>
#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/err.h>

#include "clk-virt-cluster.h"

#define MHZ 1000000UL

/* Exynos5422 A7 OPP rates, deliberately not sorted. */
static const unsigned long a7_rates[] = {
	1400 * MHZ, 200 * MHZ, 300 * MHZ, 400 * MHZ, 500 * MHZ, 600 * MHZ,
	700 * MHZ, 800 * MHZ, 900 * MHZ, 1000 * MHZ, 1100 * MHZ, 1200 * MHZ,
	1300 * MHZ,
};

struct vcc_ctx {
	struct clk_hw *hw;
	struct clk *clk;
};

static void vcc_unregister(void *hw)
{
	virt_cluster_clk_hw_unregister(hw);
}

static int vcc_init(struct kunit *test)
{
	struct vcc_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->hw = virt_cluster_clk_hw_register(NULL, "kunit-cluster", a7_rates,
					       ARRAY_SIZE(a7_rates));
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ctx->hw), "register: %ld",
			       PTR_ERR(ctx->hw));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, vcc_unregister,
							   ctx->hw));
	ctx->clk = clk_hw_get_clk_kunit(test, ctx->hw, "kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx->clk));
	test->priv = ctx;
	return 0;
}

/* A cluster PLL left at the top OPP by the boot loader. */
static void vcc_starts_at_top_opp(struct kunit *test)
{
	struct vcc_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, 1400 * MHZ, clk_get_rate(ctx->clk));
}

static void vcc_round_rate(struct kunit *test)
{
	struct vcc_ctx *ctx = test->priv;
	struct clk *clk = ctx->clk;

	/* OPP rates stay as they are. */
	KUNIT_EXPECT_EQ(test, 200 * MHZ, clk_round_rate(clk, 200 * MHZ));
	KUNIT_EXPECT_EQ(test, 900 * MHZ, clk_round_rate(clk, 900 * MHZ));
	KUNIT_EXPECT_EQ(test, 1400 * MHZ, clk_round_rate(clk, 1400 * MHZ));
	/* Others round down to the nearest OPP rate... */
	KUNIT_EXPECT_EQ(test, 900 * MHZ, clk_round_rate(clk, 999999999));
	KUNIT_EXPECT_EQ(test, 200 * MHZ, clk_round_rate(clk, 200 * MHZ + 1));
	KUNIT_EXPECT_EQ(test, 1400 * MHZ, clk_round_rate(clk, 3000 * MHZ));
	/* ...or up to the lowest one. */
	KUNIT_EXPECT_EQ(test, 200 * MHZ, clk_round_rate(clk, 1));
	KUNIT_EXPECT_EQ(test, 200 * MHZ, clk_round_rate(clk, 0));
}

/* Every OPP rate set is the rate read back: no silent no-op. */
static void vcc_set_get_every_opp(struct kunit *test)
{
	struct vcc_ctx *ctx = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(a7_rates); i++) {
		KUNIT_EXPECT_EQ(test, 0, clk_set_rate(ctx->clk, a7_rates[i]));
		KUNIT_EXPECT_EQ(test, a7_rates[i], clk_get_rate(ctx->clk));
	}
}

/* A rate between OPPs lands on the OPP below, as cpufreq-dt expects. */
static void vcc_set_between_opps(struct kunit *test)
{
	struct vcc_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, 0, clk_set_rate(ctx->clk, 650 * MHZ));
	KUNIT_EXPECT_EQ(test, 600 * MHZ, clk_get_rate(ctx->clk));
	KUNIT_EXPECT_EQ(test, 0, clk_set_rate(ctx->clk, 5));
	KUNIT_EXPECT_EQ(test, 200 * MHZ, clk_get_rate(ctx->clk));
}

/* A range with no OPP rate in it cannot be honoured. */
static void vcc_range_without_opp_refused(struct kunit *test)
{
	struct vcc_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, 0, clk_set_rate(ctx->clk, 800 * MHZ));
	KUNIT_EXPECT_NE(test, 0,
			clk_set_rate_range(ctx->clk, 810 * MHZ, 890 * MHZ));
	KUNIT_EXPECT_EQ(test, 800 * MHZ, clk_get_rate(ctx->clk));
	/*
	 * A range above the rate moves the clock to its lowest OPP rate:
	 * 800 MHz clamps to 1050 MHz, no OPP rate in range is below that.
	 */
	KUNIT_EXPECT_EQ(test, 0,
			clk_set_rate_range(ctx->clk, 1050 * MHZ, 1250 * MHZ));
	KUNIT_EXPECT_EQ(test, 1100 * MHZ, clk_get_rate(ctx->clk));
	/* Within the range, requests still round down to an OPP rate. */
	KUNIT_EXPECT_EQ(test, 0, clk_set_rate(ctx->clk, 1299 * MHZ));
	KUNIT_EXPECT_EQ(test, 1200 * MHZ, clk_get_rate(ctx->clk));
	KUNIT_EXPECT_EQ(test, 0, clk_drop_range(ctx->clk));
}

static struct kunit_case vcc_cases[] = {
	KUNIT_CASE(vcc_starts_at_top_opp),
	KUNIT_CASE(vcc_round_rate),
	KUNIT_CASE(vcc_set_get_every_opp),
	KUNIT_CASE(vcc_set_between_opps),
	KUNIT_CASE(vcc_range_without_opp_refused),
	{}
};

static struct kunit_suite vcc_suite = {
	.name = "clk-virt-cluster",
	.init = vcc_init,
	.test_cases = vcc_cases,
};

/* Rate tables the clock cannot stand for are refused at registration. */
static void vcc_register_refuses_bad_tables(struct kunit *test)
{
	static const unsigned long dup[] = { 200 * MHZ, 300 * MHZ, 200 * MHZ };
	static const unsigned long zero[] = { 0, 300 * MHZ };
	static const unsigned long one[] = { 1000 * MHZ };
	struct clk_hw *hw;

	KUNIT_EXPECT_EQ(test, -EINVAL,
			PTR_ERR(virt_cluster_clk_hw_register(NULL, "kunit-dup",
							     dup, 3)));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			PTR_ERR(virt_cluster_clk_hw_register(NULL, "kunit-zero",
							     zero, 2)));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			PTR_ERR(virt_cluster_clk_hw_register(NULL, "kunit-empty",
							     one, 0)));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			PTR_ERR(virt_cluster_clk_hw_register(NULL, "kunit-null",
							     NULL, 1)));

	/* A single OPP is a valid, if fixed, cluster. */
	hw = virt_cluster_clk_hw_register(NULL, "kunit-one", one, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hw));
	KUNIT_EXPECT_EQ(test, 1000 * MHZ, clk_hw_get_rate(hw));
	virt_cluster_clk_hw_unregister(hw);
}

/* Register, unregister, register again under the same name. */
static void vcc_register_unregister_repeatedly(struct kunit *test)
{
	struct clk_hw *hw;
	int i;

	for (i = 0; i < 3; i++) {
		hw = virt_cluster_clk_hw_register(NULL, "kunit-again", a7_rates,
						  ARRAY_SIZE(a7_rates));
		KUNIT_ASSERT_FALSE(test, IS_ERR(hw));
		KUNIT_EXPECT_EQ(test, 1400 * MHZ, clk_hw_get_rate(hw));
		virt_cluster_clk_hw_unregister(hw);
	}
}

static struct kunit_case vcc_register_cases[] = {
	KUNIT_CASE(vcc_register_refuses_bad_tables),
	KUNIT_CASE(vcc_register_unregister_repeatedly),
	{}
};

static struct kunit_suite vcc_register_suite = {
	.name = "clk-virt-cluster-register",
	.test_cases = vcc_register_cases,
};

kunit_test_suites(&vcc_suite, &vcc_register_suite);

MODULE_DESCRIPTION("KUnit tests of the emulated CPU cluster clock");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
