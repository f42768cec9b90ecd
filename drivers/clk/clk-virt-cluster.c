// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated CPU cluster clock for virtual boards
 *
 * A virtual machine has no cluster PLL, yet cpufreq-dt needs a clock per
 * CPU whose rate really changes: a fixed-rate clock turns every frequency
 * transition into a silent no-op that still reports success. This clock
 * stands in for the cluster PLL of a real board: it runs at exactly the
 * rates of the cluster's OPP table, starts at the highest one, and every
 * clk_set_rate() changes the rate that clk_get_rate() (and so
 * cpuinfo_cur_freq) reports afterwards.
 *
 * Traits of this clock:
 * prepare - clk_(un)prepare only ensures parents are prepared
 * enable - clk_enable only ensures parents are enabled
 * rate - one of the OPP rates; a request rounds down to the nearest OPP
 *        rate in the allowed range, or up to the lowest one in it; a range
 *        without an OPP rate is refused
 * parent - none
 */

#include <kunit/visibility.h>
#include <linux/clk-provider.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/limits.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "clk-virt-cluster.h"

/**
 * struct virt_cluster_clk - an emulated cluster clock
 * @hw: handle between the common clock framework and this clock
 * @rate: the current rate, in Hz; always one of @rates
 * @num_rates: number of entries in @rates
 * @rates: the OPP rates in Hz, strictly ascending
 */
struct virt_cluster_clk {
	struct clk_hw hw;
	unsigned long rate;
	unsigned int num_rates;
	unsigned long rates[] __counted_by(num_rates);
};

#define to_virt_cluster_clk(_hw) container_of(_hw, struct virt_cluster_clk, hw)

/*
 * The highest OPP rate in [@min, @max] not above @rate, else the lowest OPP
 * rate in [@min, @max]; 0 if no OPP rate is in [@min, @max].
 */
static unsigned long virt_cluster_clk_pick(const struct virt_cluster_clk *vc,
					   unsigned long rate,
					   unsigned long min,
					   unsigned long max)
{
	unsigned long best = 0;
	unsigned int i;

	for (i = 0; i < vc->num_rates; i++) {
		unsigned long r = vc->rates[i];

		if (r < min || r > max)
			continue;
		if (!best || r <= rate)
			best = r;
	}

	return best;
}

static unsigned long virt_cluster_clk_recalc_rate(struct clk_hw *hw,
						  unsigned long parent_rate)
{
	return READ_ONCE(to_virt_cluster_clk(hw)->rate);
}

static int virt_cluster_clk_determine_rate(struct clk_hw *hw,
					   struct clk_rate_request *req)
{
	struct virt_cluster_clk *vc = to_virt_cluster_clk(hw);

	unsigned long rate;

	rate = virt_cluster_clk_pick(vc, req->rate, req->min_rate,
				     req->max_rate);
	if (!rate)
		return -EINVAL;

	req->rate = rate;
	return 0;
}

static int virt_cluster_clk_set_rate(struct clk_hw *hw, unsigned long rate,
				     unsigned long parent_rate)
{
	struct virt_cluster_clk *vc = to_virt_cluster_clk(hw);

	/* Only OPP rates: determine_rate() gave one. */
	if (virt_cluster_clk_pick(vc, rate, rate, rate) != rate)
		return -EINVAL;

	WRITE_ONCE(vc->rate, rate);
	return 0;
}

static const struct clk_ops virt_cluster_clk_ops = {
	.recalc_rate = virt_cluster_clk_recalc_rate,
	.determine_rate = virt_cluster_clk_determine_rate,
	.set_rate = virt_cluster_clk_set_rate,
};

static int virt_cluster_clk_cmp_rate(const void *a, const void *b)
{
	unsigned long ra = *(const unsigned long *)a;
	unsigned long rb = *(const unsigned long *)b;

	return ra < rb ? -1 : ra > rb;
}

/**
 * virt_cluster_clk_hw_register() - register an emulated cluster clock
 * @np: device node of the clock provider, or NULL
 * @name: name of the clock
 * @rates: the OPP rates of the cluster, in Hz, in any order
 * @num_rates: number of entries in @rates
 *
 * The clock starts at the highest of @rates, as a cluster PLL does when the
 * boot loader leaves it at the top OPP; cpufreq then moves it.
 *
 * Static but for the KUnit tests (CONFIG_KUNIT: exported in the
 * EXPORTED_FOR_KUNIT_TESTING namespace): no driver but this one needs it.
 *
 * Return: the registered clock hardware, or ERR_PTR(-EINVAL) if @rates is
 * empty or has a zero or repeated rate, ERR_PTR(-ENOMEM), or the error of
 * clk_hw_register().
 */
VISIBLE_IF_KUNIT struct clk_hw *
virt_cluster_clk_hw_register(struct device_node *np, const char *name,
			     const unsigned long *rates, unsigned int num_rates)
{
	struct clk_init_data init = {};
	struct virt_cluster_clk *vc;
	unsigned int i;
	int ret;

	if (!rates || !num_rates)
		return ERR_PTR(-EINVAL);

	vc = kzalloc(struct_size(vc, rates, num_rates), GFP_KERNEL);
	if (!vc)
		return ERR_PTR(-ENOMEM);

	vc->num_rates = num_rates;
	memcpy(vc->rates, rates, flex_array_size(vc, rates, num_rates));
	sort(vc->rates, num_rates, sizeof(*vc->rates),
	     virt_cluster_clk_cmp_rate, NULL);

	ret = -EINVAL;
	for (i = 0; i < num_rates; i++)
		if (!vc->rates[i] || (i && vc->rates[i] == vc->rates[i - 1]))
			goto err_free;

	vc->rate = vc->rates[num_rates - 1];

	init.name = name;
	init.ops = &virt_cluster_clk_ops;
	init.flags = CLK_GET_RATE_NOCACHE;
	vc->hw.init = &init;

	ret = of_clk_hw_register(np, &vc->hw);
	if (ret)
		goto err_free;

	return &vc->hw;

err_free:
	kfree(vc);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(virt_cluster_clk_hw_register);

/**
 * virt_cluster_clk_hw_unregister() - unregister an emulated cluster clock
 * @hw: clock hardware returned by virt_cluster_clk_hw_register()
 */
VISIBLE_IF_KUNIT void virt_cluster_clk_hw_unregister(struct clk_hw *hw)
{
	clk_hw_unregister(hw);
	kfree(to_virt_cluster_clk(hw));
}
EXPORT_SYMBOL_IF_KUNIT(virt_cluster_clk_hw_unregister);

/*
 * Read the enabled OPPs' "opp-hz" of the table that "operating-points-v2"
 * points to. Returns the number of rates or a negative error.
 */
static int __init virt_cluster_clk_of_rates(struct device_node *np,
					    unsigned long **rates)
{
	struct device_node *opp_np;
	unsigned long *r;
	int n = 0, ret = 0;
	u64 hz;

	opp_np = of_parse_phandle(np, "operating-points-v2", 0);
	if (!opp_np)
		return -ENOENT;

	r = kcalloc(of_get_available_child_count(opp_np), sizeof(*r),
		    GFP_KERNEL);
	if (!r) {
		of_node_put(opp_np);
		return -ENOMEM;
	}

	for_each_available_child_of_node_scoped(opp_np, child) {
		ret = of_property_read_u64(child, "opp-hz", &hz);
		if (ret)
			break;
		if (!hz || hz > ULONG_MAX) {
			ret = -ERANGE;
			break;
		}
		r[n++] = hz;
	}
	of_node_put(opp_np);

	if (!ret && !n)
		ret = -ENODATA;
	if (ret) {
		kfree(r);
		return ret;
	}

	*rates = r;
	return n;
}

static void __init virt_cluster_clk_of_init(struct device_node *np)
{
	const char *name = np->name;
	unsigned long *rates;
	struct clk_hw *hw;
	int n, ret;

	n = virt_cluster_clk_of_rates(np, &rates);
	if (n < 0) {
		pr_err("%pOF: cannot read OPP rates from operating-points-v2: %d\n",
		       np, n);
		return;
	}

	of_property_read_string(np, "clock-output-names", &name);
	hw = virt_cluster_clk_hw_register(np, name, rates, n);
	kfree(rates);
	if (IS_ERR(hw)) {
		pr_err("%pOF: cannot register clock: %ld\n", np, PTR_ERR(hw));
		return;
	}

	ret = of_clk_add_hw_provider(np, of_clk_hw_simple_get, hw);
	if (ret) {
		pr_err("%pOF: cannot add clock provider: %d\n", np, ret);
		virt_cluster_clk_hw_unregister(hw);
		return;
	}

	pr_info("%pOF: %s: %d OPP rates, %lu Hz\n", np, name, n,
		clk_hw_get_rate(hw));
}

CLK_OF_DECLARE(virt_cluster_clk, "linux,virt-cluster-clock",
	       virt_cluster_clk_of_init);
