// SPDX-License-Identifier: GPL-2.0
/*
 * Power meter of a CPU cluster of a virtual board
 *
 * The Odroid-XU3 measures its A15 and A7 rails with INA231 sensors; the
 * virtual Odroid-XU4 has one of these meters per cluster instead. Its
 * energy is the cluster's Energy Model power at the OPP the cluster clock
 * runs at, for each CPU of the cluster, times that CPU's busy time, plus
 * a static power over all the time:
 *
 *	E += sum over the cluster's CPUs of P_EM(f) * busy_cpu + P_static * t
 *
 * P_EM(f) in uW comes from the CPUs' perf domain (em_cpu_get()), f from
 * the cluster clock (the "clocks" of the meter's DT node), busy time from
 * the kernel's idle accounting (get_cpu_idle_time_us()), P_static from
 * the "static-power-microwatt" DT property (default 0). The energy is
 * integrated at each rate change of the clock and at each read, so it is
 * exact for piecewise-constant frequency.
 *
 * hwmon attributes, in the units of drivers/hwmon/ina2xx.c:
 *	energy1_input	uJ, since boot (probe); a 64-bit count (hwmon_energy64):
 *			a 32-bit kernel's long would wrap it after 2^31 uJ
 *			(2147 J, about 24 minutes of a busy A15 cluster)
 *	power1_input	uW, mean since the previous read of power1_input
 *	power1_label	the DT "label", e.g. "a15"
 */

#include <linux/clk.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/hwmon.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/tick.h>

/**
 * struct vcpm - a cluster power meter
 * @dev: the meter's device
 * @clk: the cluster clock
 * @nb: rate change notifier of @clk
 * @cpus: the CPUs clocked by @clk
 * @label: name of the rail
 * @static_uw: static power, uW
 * @lock: serialises integration and reads
 * @khz: the rate @clk runs at since @last_us, kHz
 * @last_us: time of the last integration, us (ktime_get())
 * @busy_us: busy time of each CPU at @last_us, us
 * @energy_pj: energy since probe, pJ (uW * us)
 * @avg_us: time of the last power1_input read, us
 * @avg_pj: @energy_pj at @avg_us
 * @no_em: the CPUs had no Energy Model at some integration
 */
struct vcpm {
	struct device *dev;
	struct clk *clk;
	struct notifier_block nb;
	cpumask_t cpus;
	const char *label;
	u32 static_uw;
	struct mutex lock;	/* serialises integration and reads */
	unsigned long khz;
	u64 last_us;
	u64 *busy_us;
	u64 energy_pj;
	u64 avg_us;
	u64 avg_pj;
	bool no_em;
};

/* EM power of the lowest perf state at or above @khz, uW; 0 if no EM. */
static unsigned long vcpm_em_power(struct vcpm *pm, unsigned long khz)
{
	struct em_perf_domain *pd = em_cpu_get(cpumask_first(&pm->cpus));
	struct em_perf_state *table;
	unsigned long uw;
	int i;

	if (!pd) {
		if (!pm->no_em)
			dev_warn(pm->dev, "CPUs %*pbl have no Energy Model: dynamic power counts as 0\n",
				 cpumask_pr_args(&pm->cpus));
		pm->no_em = true;
		return 0;
	}

	rcu_read_lock();
	table = em_perf_state_from_pd(pd);
	for (i = 0; i < pd->nr_perf_states - 1; i++)
		if (table[i].frequency >= khz)
			break;
	uw = table[i].power;
	rcu_read_unlock();
	return uw;
}

/* Add the energy since the last integration, at the rate @pm->khz. */
static void vcpm_integrate(struct vcpm *pm)
{
	unsigned long uw = vcpm_em_power(pm, pm->khz);
	u64 now_us = ktime_to_us(ktime_get());
	int cpu;

	for_each_cpu(cpu, &pm->cpus) {
		u64 wall, idle = get_cpu_idle_time_us(cpu, &wall);
		u64 busy = wall - idle;

		if (busy > pm->busy_us[cpu])
			pm->energy_pj += (u64)uw * (busy - pm->busy_us[cpu]);
		pm->busy_us[cpu] = busy;
	}
	pm->energy_pj += (u64)pm->static_uw * (now_us - pm->last_us);
	pm->last_us = now_us;
}

static int vcpm_rate_change(struct notifier_block *nb, unsigned long event,
			    void *data)
{
	struct vcpm *pm = container_of(nb, struct vcpm, nb);
	struct clk_notifier_data *ndata = data;

	if (event != POST_RATE_CHANGE)
		return NOTIFY_DONE;

	mutex_lock(&pm->lock);
	vcpm_integrate(pm);
	pm->khz = ndata->new_rate / 1000;
	mutex_unlock(&pm->lock);
	return NOTIFY_OK;
}

static umode_t vcpm_is_visible(const void *data, enum hwmon_sensor_types type,
			       u32 attr, int channel)
{
	return 0444;
}

static int vcpm_read(struct device *dev, enum hwmon_sensor_types type,
		     u32 attr, int channel, long *val)
{
	struct vcpm *pm = dev_get_drvdata(dev);

	mutex_lock(&pm->lock);
	vcpm_integrate(pm);
	if (type == hwmon_energy64) {
		/* hwmon_energy64 passes an s64 as a long * (hwmon-kernel-api.rst) */
		*(s64 *)val = div_u64(pm->energy_pj, 1000000);
	} else {
		u64 dt = pm->last_us - pm->avg_us;

		*val = dt ? div64_u64(pm->energy_pj - pm->avg_pj, dt) : 0;
		pm->avg_us = pm->last_us;
		pm->avg_pj = pm->energy_pj;
	}
	mutex_unlock(&pm->lock);
	return 0;
}

static int vcpm_read_string(struct device *dev, enum hwmon_sensor_types type,
			    u32 attr, int channel, const char **str)
{
	struct vcpm *pm = dev_get_drvdata(dev);

	*str = pm->label;
	return 0;
}

static const struct hwmon_ops vcpm_hwmon_ops = {
	.is_visible = vcpm_is_visible,
	.read = vcpm_read,
	.read_string = vcpm_read_string,
};

static const struct hwmon_channel_info * const vcpm_info[] = {
	HWMON_CHANNEL_INFO(power, HWMON_P_INPUT | HWMON_P_LABEL),
	HWMON_CHANNEL_INFO(energy64, HWMON_E_INPUT),
	NULL
};

static const struct hwmon_chip_info vcpm_chip_info = {
	.ops = &vcpm_hwmon_ops,
	.info = vcpm_info,
};

/* The CPUs whose DT "clocks" is the meter's clock. */
static int vcpm_find_cpus(struct vcpm *pm, struct device_node *np)
{
	struct of_phandle_args meter_clk;
	int cpu, ret;

	ret = of_parse_phandle_with_args(np, "clocks", "#clock-cells", 0,
					 &meter_clk);
	if (ret)
		return ret;

	for_each_possible_cpu(cpu) {
		struct device_node *cn = of_cpu_device_node_get(cpu);
		struct of_phandle_args cpu_clk;

		if (!cn)
			continue;
		if (!of_parse_phandle_with_args(cn, "clocks", "#clock-cells", 0,
						&cpu_clk)) {
			if (cpu_clk.np == meter_clk.np)
				cpumask_set_cpu(cpu, &pm->cpus);
			of_node_put(cpu_clk.np);
		}
		of_node_put(cn);
	}
	of_node_put(meter_clk.np);
	return cpumask_empty(&pm->cpus) ? -ENODEV : 0;
}

static int vcpm_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device_node *np = dev->of_node;
	struct device *hwmon;
	struct vcpm *pm;
	int cpu, ret;

	pm = devm_kzalloc(dev, sizeof(*pm), GFP_KERNEL);
	if (!pm)
		return -ENOMEM;
	pm->dev = dev;
	pm->busy_us = devm_kcalloc(dev, nr_cpu_ids, sizeof(*pm->busy_us),
				   GFP_KERNEL);
	if (!pm->busy_us)
		return -ENOMEM;
	ret = devm_mutex_init(dev, &pm->lock);
	if (ret)
		return ret;

	pm->clk = devm_clk_get(dev, NULL);
	if (IS_ERR(pm->clk))
		return dev_err_probe(dev, PTR_ERR(pm->clk), "no cluster clock\n");
	ret = vcpm_find_cpus(pm, np);
	if (ret)
		return dev_err_probe(dev, ret, "no CPU is clocked by %pOF's clock\n", np);
	if (of_property_read_string(np, "label", &pm->label))
		pm->label = dev_name(dev);
	of_property_read_u32(np, "static-power-microwatt", &pm->static_uw);

	pm->khz = clk_get_rate(pm->clk) / 1000;
	pm->last_us = ktime_to_us(ktime_get());
	pm->avg_us = pm->last_us;
	for_each_cpu(cpu, &pm->cpus) {
		u64 wall, idle = get_cpu_idle_time_us(cpu, &wall);

		if (idle == (u64)-1)
			return dev_err_probe(dev, -ENODEV,
					     "no idle time accounting (needs NO_HZ)\n");
		pm->busy_us[cpu] = wall - idle;
	}

	pm->nb.notifier_call = vcpm_rate_change;
	ret = devm_clk_notifier_register(dev, pm->clk, &pm->nb);
	if (ret)
		return dev_err_probe(dev, ret, "cannot follow the clock's rate\n");

	platform_set_drvdata(pdev, pm);
	hwmon = devm_hwmon_device_register_with_info(dev, "cluster_power", pm,
						     &vcpm_chip_info, NULL);
	if (IS_ERR(hwmon))
		return PTR_ERR(hwmon);

	dev_info(dev, "%s: CPUs %*pbl, static %u uW\n", pm->label,
		 cpumask_pr_args(&pm->cpus), pm->static_uw);
	return 0;
}

static const struct of_device_id vcpm_of_match[] = {
	{ .compatible = "linux,virt-cluster-power-meter" },
	{ }
};
MODULE_DEVICE_TABLE(of, vcpm_of_match);

static struct platform_driver vcpm_driver = {
	.probe = vcpm_probe,
	.driver = {
		.name = "virt-cluster-power",
		.of_match_table = vcpm_of_match,
	},
};
module_platform_driver(vcpm_driver);

MODULE_DESCRIPTION("Power meter of a CPU cluster of a virtual board");
MODULE_LICENSE("GPL");
