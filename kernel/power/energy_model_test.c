// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Energy Model
 *
 * Proves, state by state, what the Energy Model framework makes of the
 * Exynos5422 (Odroid-XU3/XU4) OPP data and of synthetic tables:
 *
 *  - energy_model_device: perf tables of device (non-CPU) EMs, registered
 *    and unregistered repeatedly, and every registration error path;
 *  - energy_model_cost: cost = 10 * power / performance with the integer
 *    truncation, and the top-down inefficiency marking, on CPU tables;
 *  - energy_model_energy: em_cpu_energy() for given max and sum
 *    utilisation, with and without skipping inefficient states (these
 *    three suites need no board: kunit.py run --arch=arm runs them);
 *  - energy_model_cpu: the DT power callback (dynamic-power-coefficient *
 *    V^2 * f) and the CPU EMs of the running board, when it is an
 *    Exynos5422 (the board, or the virtual Odroid-XU4 built from its DTB),
 *    and the refusal of a second registration of a CPU EM;
 *  - energy_model_cpu_mask: the CPU mask checks of CPU EM registration
 *    (no mask, mixed capacities), on a system booted without
 *    CPU EMs.
 *
 * The expected tables are computed by hand from the Exynos5422 DT: A7
 * (coefficient 90, capacity 377) and A15 (coefficient 310, capacity 1024),
 * power = coefficient * mV^2 * MHz / 10^6 (uW), performance = capacity *
 * f / fmax, cost = 10 * power / performance, all truncated.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>
#include <linux/sched/topology.h>
#include <linux/slab.h>

struct em_test_state {
	unsigned long khz, uw, perf, cost, inefficient;
};

static const struct em_test_state a7[] = {
	{ 200000, 14580, 53, 2750, 1 },
	{ 300000, 21870, 80, 2733, 0 },
	{ 400000, 36000, 107, 3364, 1 },
	{ 500000, 45000, 134, 3358, 1 },
	{ 600000, 54000, 161, 3354, 1 },
	{ 700000, 63000, 188, 3351, 0 },
	{ 800000, 87120, 215, 4052, 1 },
	{ 900000, 98010, 242, 4050, 1 },
	{ 1000000, 108900, 269, 4048, 0 },
	{ 1100000, 154687, 296, 5225, 1 },
	{ 1200000, 168750, 323, 5224, 1 },
	{ 1300000, 182812, 350, 5223, 0 },
	{ 1400000, 204828, 377, 5433, 0 },
};

static const struct em_test_state a15[] = {
	{ 200000, 50220, 102, 4923, 1 },
	{ 300000, 75330, 153, 4923, 1 },
	{ 400000, 100440, 204, 4923, 1 },
	{ 500000, 125550, 256, 4904, 0 },
	{ 600000, 150660, 307, 4907, 0 },
	{ 700000, 175770, 358, 4909, 0 },
	{ 800000, 200880, 409, 4911, 0 },
	{ 900000, 279000, 460, 6065, 1 },
	{ 1000000, 310000, 512, 6054, 0 },
	{ 1100000, 341000, 563, 6056, 0 },
	{ 1200000, 372000, 614, 6058, 0 },
	{ 1300000, 487630, 665, 7332, 1 },
	{ 1400000, 525140, 716, 7334, 1 },
	{ 1500000, 562650, 768, 7326, 0 },
	{ 1600000, 775000, 819, 9462, 1 },
	{ 1700000, 823437, 870, 9464, 1 },
	{ 1800000, 853834, 921, 9270, 0 },
	{ 1900000, 938067, 972, 9650, 0 },
	{ 2000000, 1067233, 1024, 10422, 0 },
};

/*
 * The table the active_power() callback serves. Tests run one at a time,
 * so one pointer will do; each test sets it before registering.
 */
static struct {
	const struct em_test_state *states;
	int nr;
	int err;		/* returned by the callback when non-zero */
	int bad_state;		/* state whose data err/override applies to */
	unsigned long bad_khz;	/* frequency returned for bad_state, if set */
	unsigned long bad_uw;	/* power for bad_state, unless ULONG_MAX */
	int calls;
} em_cb_data;

static void em_cb_set(const struct em_test_state *states, int nr)
{
	memset(&em_cb_data, 0, sizeof(em_cb_data));
	em_cb_data.states = states;
	em_cb_data.nr = nr;
	em_cb_data.bad_state = -1;
	em_cb_data.bad_uw = ULONG_MAX;
}

/* Like an OPP table: the lowest state at or above *khz. */
static int em_test_active_power(struct device *dev, unsigned long *uw,
				unsigned long *khz)
{
	int i;

	em_cb_data.calls++;
	for (i = 0; i < em_cb_data.nr; i++)
		if (em_cb_data.states[i].khz >= *khz)
			break;
	if (i == em_cb_data.nr)
		return -ERANGE;

	*khz = em_cb_data.states[i].khz;
	*uw = em_cb_data.states[i].uw;
	if (i == em_cb_data.bad_state) {
		if (em_cb_data.err)
			return em_cb_data.err;
		if (em_cb_data.bad_khz)
			*khz = em_cb_data.bad_khz;
		if (em_cb_data.bad_uw != ULONG_MAX)
			*uw = em_cb_data.bad_uw;
	}
	return 0;
}

static struct em_data_callback em_test_cb = EM_DATA_CB(em_test_active_power);

static struct device *em_test_device(struct kunit *test)
{
	struct device *dev = kunit_device_register(test, "em-kunit");

	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	return dev;
}

static void em_expect_device_table(struct kunit *test, struct device *dev,
				   const struct em_test_state *exp, int nr)
{
	struct em_perf_domain *pd = em_pd_get(dev);
	struct em_perf_state *table;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, pd);
	KUNIT_EXPECT_EQ(test, nr, pd->nr_perf_states);
	KUNIT_EXPECT_TRUE(test, pd->flags & EM_PERF_DOMAIN_MICROWATTS);
	KUNIT_EXPECT_FALSE(test, pd->flags & EM_PERF_DOMAIN_SKIP_INEFFICIENCIES);

	rcu_read_lock();
	table = em_perf_state_from_pd(pd);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, exp[i].khz, table[i].frequency, "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, exp[i].uw, table[i].power, "state %d", i);
		/* Only CPU EMs get performance, cost and inefficiencies. */
		KUNIT_EXPECT_EQ_MSG(test, 0, table[i].performance, "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, 0, table[i].cost, "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, 0, table[i].flags, "state %d", i);
	}
	rcu_read_unlock();
}

/* A device EM with the A15 OPPs keeps every frequency and power. */
static void em_device_a15_table(struct kunit *test)
{
	struct device *dev = em_test_device(test);

	em_cb_set(a15, ARRAY_SIZE(a15));
	KUNIT_ASSERT_EQ(test, 0,
			em_dev_register_perf_domain(dev, ARRAY_SIZE(a15),
						    &em_test_cb, NULL, true));
	/* One callback call per state, from 0 kHz upwards. */
	KUNIT_EXPECT_EQ(test, (int)ARRAY_SIZE(a15), em_cb_data.calls);
	em_expect_device_table(test, dev, a15, ARRAY_SIZE(a15));
	em_dev_unregister_perf_domain(dev);
	KUNIT_EXPECT_NULL(test, em_pd_get(dev));
}

/* Device EMs can come and go, unlike CPU EMs. */
static void em_device_register_repeatedly(struct kunit *test)
{
	struct device *dev = em_test_device(test);
	int i;

	for (i = 0; i < 3; i++) {
		em_cb_set(i % 2 ? a7 : a15, i % 2 ? ARRAY_SIZE(a7) : ARRAY_SIZE(a15));
		KUNIT_ASSERT_EQ(test, 0,
				em_dev_register_perf_domain(dev, em_cb_data.nr,
							    &em_test_cb, NULL, true));
		em_expect_device_table(test, dev, em_cb_data.states, em_cb_data.nr);
		em_dev_unregister_perf_domain(dev);
		KUNIT_EXPECT_NULL(test, em_pd_get(dev));
	}
}

/* Fewer states than the table has: only the lowest ones are taken. */
static void em_device_fewer_states(struct kunit *test)
{
	struct device *dev = em_test_device(test);

	em_cb_set(a7, ARRAY_SIZE(a7));
	KUNIT_ASSERT_EQ(test, 0,
			em_dev_register_perf_domain(dev, 4, &em_test_cb, NULL,
						    true));
	em_expect_device_table(test, dev, a7, 4);
	em_dev_unregister_perf_domain(dev);
}

static int em_register_bad(struct kunit *test, struct device *dev)
{
	int ret = em_dev_register_perf_domain(dev, em_cb_data.nr, &em_test_cb,
					      NULL, true);

	/* A failed registration leaves no EM behind. */
	if (ret)
		KUNIT_EXPECT_NULL(test, em_pd_get(dev));
	else
		em_dev_unregister_perf_domain(dev);
	return ret;
}

static void em_device_register_errors(struct kunit *test)
{
	struct em_data_callback no_power = {};
	struct device *dev = em_test_device(test);

	em_cb_set(a7, ARRAY_SIZE(a7));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(NULL, 13, &em_test_cb, NULL, true));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(dev, 0, &em_test_cb, NULL, true));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(dev, 13, NULL, NULL, true));
	/* A callback structure without active_power(). */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(dev, 13, &no_power, NULL, true));
	/* Power not in uW, and no get_cost() to make an artificial EM. */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(dev, 13, &em_test_cb, NULL, false));
	KUNIT_EXPECT_NULL(test, em_pd_get(dev));

	/* More states than the callback can give: it fails at the end. */
	em_cb_set(a7, ARRAY_SIZE(a7));
	em_cb_data.nr = 13;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(dev, 14, &em_test_cb, NULL, true));
	KUNIT_EXPECT_NULL(test, em_pd_get(dev));

	/* The callback fails, as the DT one does without opp-microvolt. */
	em_cb_set(a7, ARRAY_SIZE(a7));
	em_cb_data.bad_state = 5;
	em_cb_data.err = -EINVAL;
	KUNIT_EXPECT_EQ(test, -EINVAL, em_register_bad(test, dev));

	/* Non-increasing frequency: state 5 reports state 4's frequency. */
	em_cb_set(a7, ARRAY_SIZE(a7));
	em_cb_data.bad_state = 5;
	em_cb_data.bad_khz = a7[4].khz;
	KUNIT_EXPECT_EQ(test, -EINVAL, em_register_bad(test, dev));

	/* Zero power. */
	em_cb_set(a7, ARRAY_SIZE(a7));
	em_cb_data.bad_state = 0;
	em_cb_data.bad_uw = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, em_register_bad(test, dev));

	/* Power just over the limit, and just at it. */
	em_cb_set(a15, ARRAY_SIZE(a15));
	em_cb_data.bad_state = 18;
	em_cb_data.bad_uw = EM_MAX_POWER + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, em_register_bad(test, dev));
	em_cb_data.bad_uw = EM_MAX_POWER;
	KUNIT_EXPECT_EQ(test, 0, em_register_bad(test, dev));
}

static void em_device_register_twice(struct kunit *test)
{
	struct device *dev = em_test_device(test);

	em_cb_set(a7, ARRAY_SIZE(a7));
	KUNIT_ASSERT_EQ(test, 0,
			em_dev_register_perf_domain(dev, 13, &em_test_cb, NULL,
						    true));
	KUNIT_EXPECT_EQ(test, -EEXIST,
			em_dev_register_perf_domain(dev, 13, &em_test_cb, NULL, true));
	/* The first EM is still the one in place. */
	em_expect_device_table(test, dev, a7, ARRAY_SIZE(a7));
	em_dev_unregister_perf_domain(dev);
}

/*
 * CPU devices: every CPU of a running system with an EM already has one,
 * so any new registration is refused with -EEXIST before the CPU mask and
 * capacity checks run; and a CPU EM cannot be unregistered.
 */
static void em_cpu_register_refused(struct kunit *test)
{
	struct device *cpu_dev = get_cpu_device(0);
	struct em_perf_domain *pd;
	struct cpumask cpu0;

	if (!cpu_dev || !em_cpu_get(0))
		kunit_skip(test, "CPU0 has no Energy Model");
	pd = em_cpu_get(0);
	cpumask_clear(&cpu0);
	cpumask_set_cpu(0, &cpu0);

	em_cb_set(a7, ARRAY_SIZE(a7));
	KUNIT_EXPECT_EQ(test, -EEXIST,
			em_dev_register_perf_domain(cpu_dev, 13, &em_test_cb,
						    &cpu0, true));
	KUNIT_EXPECT_EQ(test, -EEXIST,
			em_dev_register_perf_domain(cpu_dev, 13, &em_test_cb,
						    NULL, true));
	KUNIT_EXPECT_EQ(test, 0, em_cb_data.calls);
	em_dev_unregister_perf_domain(cpu_dev);
	KUNIT_EXPECT_PTR_EQ(test, pd, em_cpu_get(0));
}

static struct kunit_case em_device_cases[] = {
	KUNIT_CASE(em_device_a15_table),
	KUNIT_CASE(em_device_register_repeatedly),
	KUNIT_CASE(em_device_fewer_states),
	KUNIT_CASE(em_device_register_errors),
	KUNIT_CASE(em_device_register_twice),
	{}
};

static struct kunit_suite em_device_suite = {
	.name = "energy_model_device",
	.test_cases = em_device_cases,
};

/* A CPU table with frequency, power and performance; cost/flags cleared. */
static struct em_perf_state *em_cpu_table(struct kunit *test,
					  const struct em_test_state *s, int nr)
{
	struct em_perf_state *t = kunit_kcalloc(test, nr, sizeof(*t), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < nr; i++) {
		t[i].frequency = s[i].khz;
		t[i].power = s[i].uw;
		t[i].performance = s[i].perf;
	}
	return t;
}

static void em_expect_costs(struct kunit *test, const struct em_test_state *s,
			    int nr)
{
	struct em_perf_state *t = em_cpu_table(test, s, nr);
	int i;

	KUNIT_ASSERT_EQ(test, 0, em_dev_compute_costs(get_cpu_device(0), t, nr));
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, s[i].cost, t[i].cost, "%lu kHz", s[i].khz);
		KUNIT_EXPECT_EQ_MSG(test, s[i].inefficient ? EM_PERF_STATE_INEFFICIENT : 0,
				    t[i].flags, "%lu kHz", s[i].khz);
	}
}

static void em_cost_a7(struct kunit *test)
{
	em_expect_costs(test, a7, ARRAY_SIZE(a7));
}

/*
 * A15 200..500 MHz share 0.9 V, so their cost is the same on paper
 * (power / frequency); the truncated performance (102, 153, 204 for 102.4,
 * 153.6, 204.8) makes 200..400 MHz cost 4923 and 500 MHz (256, exact)
 * 4904: the three lowest OPPs are marked inefficient.
 */
static void em_cost_a15(struct kunit *test)
{
	em_expect_costs(test, a15, ARRAY_SIZE(a15));
}

/*
 * Equal costs: only the highest of them stays efficient (cost >= prev),
 * and costs that differ on paper truncate to equal ones: 30090 / 300 =
 * 100.3 and 40390 / 400 = 100.975 both give 100.
 */
static void em_cost_equal_and_truncation(struct kunit *test)
{
	static const struct em_test_state t[] = {
		{ 100000, 1000, 100, 100, 1 },
		{ 200000, 2000, 200, 100, 1 },
		{ 300000, 3009, 300, 100, 1 },
		{ 400000, 4039, 400, 100, 0 },
		{ 500000, 5100, 500, 102, 0 },
	};

	em_expect_costs(test, t, ARRAY_SIZE(t));
}

static struct kunit_case em_cost_cases[] = {
	KUNIT_CASE(em_cost_a7),
	KUNIT_CASE(em_cost_a15),
	KUNIT_CASE(em_cost_equal_and_truncation),
	{}
};

static struct kunit_suite em_cost_suite = {
	.name = "energy_model_cost",
	.test_cases = em_cost_cases,
};

/* A perf domain of four CPUs with the A15 table, flags as given. */
static struct em_perf_domain *em_test_pd(struct kunit *test, unsigned long flags)
{
	struct em_perf_domain *pd;
	struct em_perf_table *table;
	int i, nr = ARRAY_SIZE(a15);

	pd = kunit_kzalloc(test, sizeof(*pd) + cpumask_size(), GFP_KERNEL);
	table = kunit_kzalloc(test, struct_size(table, state, nr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	KUNIT_ASSERT_NOT_NULL(test, table);
	for (i = 0; i < nr; i++) {
		table->state[i].frequency = a15[i].khz;
		table->state[i].power = a15[i].uw;
		table->state[i].performance = a15[i].perf;
		table->state[i].cost = a15[i].cost;
		table->state[i].flags = a15[i].inefficient ? EM_PERF_STATE_INEFFICIENT : 0;
	}
	pd->nr_perf_states = nr;
	pd->flags = flags;
	rcu_assign_pointer(pd->em_table, table);
	return pd;
}

static unsigned long em_energy(struct em_perf_domain *pd, unsigned long max_util,
			       unsigned long sum_util, unsigned long cap)
{
	unsigned long e;

	rcu_read_lock();
	e = em_cpu_energy(pd, max_util, sum_util, cap);
	rcu_read_unlock();
	return e;
}

/*
 * energy = cost of the lowest state whose performance covers max_util,
 * times sum_util. (The 1.25 headroom is schedutil's, applied by the caller
 * in 6.12, not here.)
 */
static void em_energy_state_choice(struct kunit *test)
{
	unsigned long skip = EM_PERF_DOMAIN_MICROWATTS | EM_PERF_DOMAIN_SKIP_INEFFICIENCIES;
	struct em_perf_domain *all = em_test_pd(test, EM_PERF_DOMAIN_MICROWATTS);
	struct em_perf_domain *eff = em_test_pd(test, skip);

	/* Nothing runs: no energy. */
	KUNIT_EXPECT_EQ(test, 0, em_energy(all, 500, 0, 1024));
	/* util 100: 200 MHz (perf 102); skipping goes to 500 MHz. */
	KUNIT_EXPECT_EQ(test, 4923UL * 300, em_energy(all, 100, 300, 1024));
	KUNIT_EXPECT_EQ(test, 4904UL * 300, em_energy(eff, 100, 300, 1024));
	/* util exactly a state's performance: that state. */
	KUNIT_EXPECT_EQ(test, 4904UL * 256, em_energy(all, 256, 256, 1024));
	KUNIT_EXPECT_EQ(test, 4907UL * 257, em_energy(all, 257, 257, 1024));
	/* util 450: 900 MHz (460) is inefficient, 1000 MHz (512) is not. */
	KUNIT_EXPECT_EQ(test, 6065UL * 1000, em_energy(all, 450, 1000, 1024));
	KUNIT_EXPECT_EQ(test, 6054UL * 1000, em_energy(eff, 450, 1000, 1024));
	/* util 800: 1600 MHz (819); skipping 1600 and 1700 gives 1800 MHz. */
	KUNIT_EXPECT_EQ(test, 9462UL * 2000, em_energy(all, 800, 2000, 1024));
	KUNIT_EXPECT_EQ(test, 9270UL * 2000, em_energy(eff, 800, 2000, 1024));
	/* Above the top: the top state. */
	KUNIT_EXPECT_EQ(test, 10422UL * 4000, em_energy(all, 1100, 4000, 2048));
	KUNIT_EXPECT_EQ(test, 10422UL * 4000, em_energy(eff, 1100, 4000, 2048));
}

/* max_util is capped by the CPUs' allowed capacity (thermal pressure). */
static void em_energy_allowed_capacity(struct kunit *test)
{
	struct em_perf_domain *pd = em_test_pd(test, EM_PERF_DOMAIN_MICROWATTS |
					       EM_PERF_DOMAIN_SKIP_INEFFICIENCIES);

	/* 900 capped to 600: 1200 MHz (614), not 1800 MHz. */
	KUNIT_EXPECT_EQ(test, 6058UL * 1500, em_energy(pd, 900, 1500, 600));
	/* 900 capped to 800: 1600 MHz is inefficient, so 1800 MHz. */
	KUNIT_EXPECT_EQ(test, 9270UL * 1500, em_energy(pd, 900, 1500, 800));
	/* A cap above max_util changes nothing. */
	KUNIT_EXPECT_EQ(test, 6054UL * 1500, em_energy(pd, 500, 1500, 1024));
}

static struct kunit_case em_energy_cases[] = {
	KUNIT_CASE(em_energy_state_choice),
	KUNIT_CASE(em_energy_allowed_capacity),
	{}
};

static struct kunit_suite em_energy_suite = {
	.name = "energy_model_energy",
	.test_cases = em_energy_cases,
};

/* Skip unless @cpu's DT node has the Exynos5422 coefficient @coeff. */
static void em_need_exynos5422_cpu(struct kunit *test, int cpu, u32 coeff)
{
	struct device_node *np = of_get_cpu_node(cpu, NULL);
	u32 val = 0;

	if (np)
		of_property_read_u32(np, "dynamic-power-coefficient", &val);
	of_node_put(np);
	if (val != coeff)
		kunit_skip(test, "CPU%d is no Exynos5422 CPU (coefficient %u, not %u)",
			   cpu, val, coeff);
}

static void em_expect_dt_power(struct kunit *test, int cpu,
			       const struct em_test_state *s, int nr)
{
	struct device *dev = get_cpu_device(cpu);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	for (i = 0; i < nr; i++) {
		unsigned long uw = 0, khz = s[i].khz;

		KUNIT_EXPECT_EQ(test, 0, dev_pm_opp_calc_power(dev, &uw, &khz));
		KUNIT_EXPECT_EQ_MSG(test, s[i].khz, khz, "CPU%d", cpu);
		KUNIT_EXPECT_EQ_MSG(test, s[i].uw, uw, "CPU%d at %lu kHz", cpu, s[i].khz);
	}
}

/*
 * dev_pm_opp_calc_power(): P = coefficient * mV^2 * MHz / 10^6, e.g. the
 * A15 at 2 GHz and 1.3125 V: 310 * 1312^2 * 2000 / 10^6 = 1067233 uW (the
 * millivolts truncate: 1312, not 1312.5).
 */
static void em_dt_power_callback(struct kunit *test)
{
	unsigned long uw = 0, khz;

	em_need_exynos5422_cpu(test, 0, 90);
	em_need_exynos5422_cpu(test, 4, 310);
	em_expect_dt_power(test, 0, a7, ARRAY_SIZE(a7));
	em_expect_dt_power(test, 4, a15, ARRAY_SIZE(a15));

	/* A frequency between OPPs gives the next OPP up, like the EM walk. */
	khz = 1999999;
	KUNIT_EXPECT_EQ(test, 0, dev_pm_opp_calc_power(get_cpu_device(4), &uw, &khz));
	KUNIT_EXPECT_EQ(test, 2000000, khz);
	KUNIT_EXPECT_EQ(test, 1067233, uw);
	/* Above the top OPP there is none. */
	khz = 2000001;
	KUNIT_EXPECT_NE(test, 0, dev_pm_opp_calc_power(get_cpu_device(4), &uw, &khz));
}

static void em_expect_cpu_pd(struct kunit *test, int cpu, const char *span,
			     const struct em_test_state *s, int nr)
{
	struct em_perf_domain *pd = em_cpu_get(cpu);
	struct em_perf_state *table;
	char buf[16];
	int i;

	KUNIT_ASSERT_NOT_NULL_MSG(test, pd, "CPU%d has no Energy Model", cpu);
	scnprintf(buf, sizeof(buf), "%*pbl", cpumask_pr_args(em_span_cpus(pd)));
	KUNIT_EXPECT_STREQ(test, span, buf);
	KUNIT_ASSERT_EQ(test, nr, pd->nr_perf_states);
	KUNIT_EXPECT_EQ(test, EM_PERF_DOMAIN_MICROWATTS |
			EM_PERF_DOMAIN_SKIP_INEFFICIENCIES, pd->flags);

	rcu_read_lock();
	table = em_perf_state_from_pd(pd);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, s[i].khz, table[i].frequency, "CPU%d state %d", cpu, i);
		KUNIT_EXPECT_EQ_MSG(test, s[i].uw, table[i].power, "CPU%d state %d", cpu, i);
		KUNIT_EXPECT_EQ_MSG(test, s[i].perf, table[i].performance,
				    "CPU%d state %d", cpu, i);
		KUNIT_EXPECT_EQ_MSG(test, s[i].cost, table[i].cost, "CPU%d state %d", cpu, i);
		KUNIT_EXPECT_EQ_MSG(test, s[i].inefficient ? EM_PERF_STATE_INEFFICIENT : 0,
				    table[i].flags, "CPU%d state %d", cpu, i);
	}
	/* The top state's performance is the CPU's capacity. */
	KUNIT_EXPECT_EQ(test, arch_scale_cpu_capacity(cpu), table[nr - 1].performance);
	rcu_read_unlock();
}

/* The running board's CPU EMs: the Exynos5422's, state by state. */
static void em_cpu_board_tables(struct kunit *test)
{
	em_need_exynos5422_cpu(test, 0, 90);
	em_need_exynos5422_cpu(test, 4, 310);
	em_expect_cpu_pd(test, 0, "0-3", a7, ARRAY_SIZE(a7));
	em_expect_cpu_pd(test, 4, "4-7", a15, ARRAY_SIZE(a15));
	/* One domain per cluster: every CPU of a cluster shares it. */
	KUNIT_EXPECT_PTR_EQ(test, em_cpu_get(0), em_cpu_get(3));
	KUNIT_EXPECT_PTR_EQ(test, em_cpu_get(4), em_cpu_get(7));
	KUNIT_EXPECT_PTR_NE(test, em_cpu_get(0), em_cpu_get(4));
}

static struct kunit_case em_cpu_cases[] = {
	KUNIT_CASE(em_dt_power_callback),
	KUNIT_CASE(em_cpu_board_tables),
	KUNIT_CASE(em_cpu_register_refused),
	{}
};

static struct kunit_suite em_cpu_suite = {
	.name = "energy_model_cpu",
	.test_cases = em_cpu_cases,
};

/*
 * The CPU mask checks of CPU EM registration can only be reached where no
 * CPU has an EM yet: the virtual Odroid-XU4 booted with a DT without
 * dynamic-power-coefficient (make check boots it so). Elsewhere the suite
 * is skipped. No case registers a CPU EM: one can never be unregistered
 * (em_dev_unregister_perf_domain() ignores CPU devices), and the suite
 * must leave the system as it found it. The success path of CPU EM
 * registration is the board's own (energy_model_cpu checks its tables).
 */
static int em_cpu_mask_init(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (em_cpu_get(cpu))
			kunit_skip(test, "CPU%d has an EM: needs a boot without CPU EMs", cpu);
	if (!get_cpu_device(0) || !get_cpu_device(4) ||
	    arch_scale_cpu_capacity(0) == arch_scale_cpu_capacity(4))
		kunit_skip(test, "needs CPU0 and CPU4 of different capacities");
	return 0;
}

/* Without dynamic-power-coefficient, cpufreq-dt registered no EM at all. */
static void em_cpu_mask_no_dt_em(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_NULL(test, em_cpu_get(cpu));
}

static void em_cpu_mask_refused(struct kunit *test)
{
	struct device *cpu_dev = get_cpu_device(0);
	struct cpumask mixed;

	em_cb_set(a7, ARRAY_SIZE(a7));
	/* A CPU device needs a CPU mask. */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(cpu_dev, 13, &em_test_cb,
						    NULL, true));
	/* The CPUs of one perf domain share one table: one capacity. */
	cpumask_clear(&mixed);
	cpumask_set_cpu(0, &mixed);
	cpumask_set_cpu(4, &mixed);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			em_dev_register_perf_domain(cpu_dev, 13, &em_test_cb,
						    &mixed, true));
	KUNIT_EXPECT_EQ(test, 0, em_cb_data.calls);
	KUNIT_EXPECT_NULL(test, em_cpu_get(0));
	KUNIT_EXPECT_NULL(test, em_cpu_get(4));
}

static struct kunit_case em_cpu_mask_cases[] = {
	KUNIT_CASE(em_cpu_mask_no_dt_em),
	KUNIT_CASE(em_cpu_mask_refused),
	{}
};

static struct kunit_suite em_cpu_mask_suite = {
	.name = "energy_model_cpu_mask",
	.init = em_cpu_mask_init,
	.test_cases = em_cpu_mask_cases,
};

kunit_test_suites(&em_device_suite, &em_cost_suite, &em_energy_suite,
		  &em_cpu_suite, &em_cpu_mask_suite);

MODULE_DESCRIPTION("KUnit tests of the Energy Model");
MODULE_LICENSE("GPL");
