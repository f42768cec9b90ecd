// SPDX-License-Identifier: GPL-2.0
/*
 * Power meter of a CPU cluster of a virtual board
 *
 * The Odroid-XU3 measures its A15 and A7 rails with INA231 sensors; the
 * virtual Odroid-XU4 has one of these meters per cluster instead. A rail
 * carries the cluster's leakage, paid whenever the cluster is powered
 * (the XU4 has no cluster power-down: WFI only), the clock power of each
 * powered CPU even in WFI, and the dynamic power of the busy CPUs:
 *
 *	E += (P_leak(V) + n_online * P_wfi(f, V) + P_static) * t
 *	   + sum over the cluster's CPUs of P_EM(f) * busy_cpu
 *
 * f is the rate of the cluster clock (the "clocks" of the meter's DT
 * node), V the voltage of its OPP. P_leak and P_wfi come per OPP from the
 * "idle-power-microwatt" DT property, which the board's DTB tool computes
 * from published Odroid-XU3 measurements (see
 * Documentation/admin-guide/odroid-eas.rst: P_leak = A * exp(B * V),
 * P_wfi = C * V^2 * f, fitted to the A15 rail's idle power of the
 * Powmon data set and to the A7 model of the same group); absent, both
 * are 0. P_EM(f) in uW comes from the CPUs' perf domain (em_cpu_get()),
 * busy time from the kernel's idle accounting (get_cpu_idle_time_us() and
 * get_cpu_iowait_time_us(): a CPU idle while a task waits for I/O is idle),
 * P_static from the "static-power-microwatt" DT property (default 0),
 * n_online is the number of online CPUs of the cluster. With the module
 * parameter model=em, P_leak and P_wfi count as 0: the EM's dynamic power
 * only, as the kernel's Energy Model sees the cluster. The energy is
 * integrated at each rate change of the clock and at each read, so it is
 * exact for piecewise-constant frequency.
 *
 * hwmon attributes, in the units of drivers/hwmon/ina2xx.c:
 *	energy1_input	uJ, since boot (probe); a 64-bit count (hwmon_energy64):
 *			a 32-bit kernel's long would wrap it after 2^31 uJ
 *			(2147 J, about 24 minutes of a busy A15 cluster)
 *	power1_average	uW, mean over the last complete averaging interval
 *			(the mean since probe until one is complete); reads
 *			do not change it, as in drivers/hwmon/acpi_power_meter.c;
 *			a long, so it saturates at LONG_MAX (2147 W on 32 bits)
 *	power1_average_interval	ms, 10 to 60000 (default 1000), writable; a
 *			write starts a new interval
 *	power1_label	the DT "label", e.g. "a15"
 * The averaging intervals are timed by a deferrable delayed work: an idle
 * board is not woken for them, and an interval then ends at the first
 * tick after its time, its mean taken over its actual length.
 */

#include <linux/clk.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/hwmon.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/workqueue.h>

static char *model = "full";
module_param(model, charp, 0444);
MODULE_PARM_DESC(model,
		 "full: leakage, WFI and EM dynamic power (default); em: the EM's dynamic power only");

/**
 * struct vcpm_idle - the cluster's idle power at one OPP
 * @khz: the OPP's frequency, kHz
 * @leak_uw: leakage of the cluster at the OPP's voltage, uW
 * @wfi_uw: power of one CPU in WFI at the OPP, uW
 */
struct vcpm_idle {
	u32 khz;
	u32 leak_uw;
	u32 wfi_uw;
};

/**
 * struct vcpm - a cluster power meter
 * @dev: the meter's device
 * @clk: the cluster clock
 * @nb: rate change notifier of @clk
 * @cpus: the CPUs clocked by @clk
 * @label: name of the rail
 * @static_uw: static power, uW
 * @idle: idle power per OPP, ascending frequency; NULL with model=em
 * @nr_idle: entries of @idle
 * @lock: serialises integration and reads
 * @khz: the rate @clk runs at since @last_us, kHz
 * @last_us: time of the last integration, us (ktime_get())
 * @busy_us: busy time of each CPU at @last_us, us
 * @energy_pj: energy since probe, pJ (uW * us)
 * @avg_work: ends an averaging interval
 * @avg_ms: averaging interval, ms
 * @avg_us: start of the current averaging interval, us
 * @avg_pj: @energy_pj at @avg_us
 * @avg_uw: mean power of the last complete interval, uW; -1: none yet
 * @no_em: the CPUs had no Energy Model at some integration
 */
struct vcpm {
	struct device *dev;
	struct clk *clk;
	struct notifier_block nb;
	cpumask_t cpus;
	const char *label;
	u32 static_uw;
	struct vcpm_idle *idle;
	int nr_idle;
	struct mutex lock;	/* serialises integration and reads */
	unsigned long khz;
	u64 last_us;
	u64 *busy_us;
	u64 energy_pj;
	struct delayed_work avg_work;
	u32 avg_ms;
	u64 avg_us;
	u64 avg_pj;
	s64 avg_uw;
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

/*
 * Idle power of the cluster at @khz, uW: leakage plus @n CPUs in WFI, at
 * the lowest OPP at or above @khz (the EM's rule).
 */
static u64 vcpm_idle_power(struct vcpm *pm, unsigned long khz, unsigned int n)
{
	int i;

	if (!pm->nr_idle)
		return 0;
	for (i = 0; i < pm->nr_idle - 1; i++)
		if (pm->idle[i].khz >= khz)
			break;
	return pm->idle[i].leak_uw + (u64)n * pm->idle[i].wfi_uw;
}

/*
 * Busy time of @cpu since boot, us, or -1 without NO_HZ idle accounting.
 * A CPU is idle in WFI whether or not a task that last ran on it waits for
 * I/O, but the kernel counts the second case as iowait, apart from its
 * idle time (kernel/time/tick-sched.c): both are idle here.
 */
static u64 vcpm_busy_us(int cpu)
{
	u64 wall, idle = get_cpu_idle_time_us(cpu, &wall);
	u64 iowait = get_cpu_iowait_time_us(cpu, NULL);

	if (idle == (u64)-1 || iowait == (u64)-1)
		return -1;
	return wall - idle - iowait;
}

/* Add the energy since the last integration, at the rate @pm->khz. */
static void vcpm_integrate(struct vcpm *pm)
{
	unsigned long uw = vcpm_em_power(pm, pm->khz);
	u64 now_us = ktime_to_us(ktime_get());
	u64 base_uw;
	int cpu;

	for_each_cpu(cpu, &pm->cpus) {
		u64 busy = vcpm_busy_us(cpu);

		if (busy > pm->busy_us[cpu])
			pm->energy_pj += (u64)uw * (busy - pm->busy_us[cpu]);
		pm->busy_us[cpu] = busy;
	}
	base_uw = pm->static_uw +
		  vcpm_idle_power(pm, pm->khz,
				  cpumask_weight_and(&pm->cpus, cpu_online_mask));
	pm->energy_pj += base_uw * (now_us - pm->last_us);
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

/* End an averaging interval: its mean power, and start the next. */
static void vcpm_avg_work(struct work_struct *work)
{
	struct vcpm *pm = container_of(to_delayed_work(work), struct vcpm,
				       avg_work);
	u64 dt;

	mutex_lock(&pm->lock);
	vcpm_integrate(pm);
	dt = pm->last_us - pm->avg_us;
	if (dt) {
		pm->avg_uw = div64_u64(pm->energy_pj - pm->avg_pj, dt);
		pm->avg_us = pm->last_us;
		pm->avg_pj = pm->energy_pj;
	}
	schedule_delayed_work(&pm->avg_work, msecs_to_jiffies(pm->avg_ms));
	mutex_unlock(&pm->lock);
}

static void vcpm_avg_stop(void *data)
{
	struct vcpm *pm = data;

	cancel_delayed_work_sync(&pm->avg_work);
}

static umode_t vcpm_is_visible(const void *data, enum hwmon_sensor_types type,
			       u32 attr, int channel)
{
	if (type == hwmon_power && attr == hwmon_power_average_interval)
		return 0644;
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
	} else if (attr == hwmon_power_average_interval) {
		*val = pm->avg_ms;
	} else {
		u64 dt = pm->last_us - pm->avg_us;
		u64 uw = pm->avg_uw;

		if (pm->avg_uw < 0)
			uw = dt ? div64_u64(pm->energy_pj - pm->avg_pj, dt) : 0;
		/* a long: 2147 W at most on 32-bit kernels; saturate, never wrap */
		*val = min_t(u64, uw, LONG_MAX);
	}
	mutex_unlock(&pm->lock);
	return 0;
}

static int vcpm_write(struct device *dev, enum hwmon_sensor_types type,
		      u32 attr, int channel, long val)
{
	struct vcpm *pm = dev_get_drvdata(dev);

	if (type != hwmon_power || attr != hwmon_power_average_interval)
		return -EOPNOTSUPP;
	mutex_lock(&pm->lock);
	pm->avg_ms = clamp_val(val, 10, 60000);
	/* A new interval starts now; the last complete one's mean stays. */
	vcpm_integrate(pm);
	pm->avg_us = pm->last_us;
	pm->avg_pj = pm->energy_pj;
	mod_delayed_work(system_wq, &pm->avg_work, msecs_to_jiffies(pm->avg_ms));
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
	.write = vcpm_write,
};

static const struct hwmon_channel_info * const vcpm_info[] = {
	HWMON_CHANNEL_INFO(power, HWMON_P_AVERAGE | HWMON_P_AVERAGE_INTERVAL |
			   HWMON_P_LABEL),
	HWMON_CHANNEL_INFO(energy64, HWMON_E_INPUT),
	NULL
};

static const struct hwmon_chip_info vcpm_chip_info = {
	.ops = &vcpm_hwmon_ops,
	.info = vcpm_info,
};

/*
 * The "idle-power-microwatt" triplets <kHz leakage-uW wfi-uW>, one per OPP
 * of the cluster in ascending frequency; none: no idle power.
 */
static int vcpm_parse_idle(struct vcpm *pm, struct device_node *np)
{
	int n = of_property_count_u32_elems(np, "idle-power-microwatt");
	u32 *v;
	int i, ret;

	if (n == -EINVAL)
		return 0;
	if (n <= 0 || n % 3)
		return dev_err_probe(pm->dev, -EINVAL,
				     "%pOF: idle-power-microwatt wants <kHz leakage-uW wfi-uW> triplets\n",
				     np);
	v = kcalloc(n, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	ret = of_property_read_u32_array(np, "idle-power-microwatt", v, n);
	if (ret)
		goto out;
	pm->idle = devm_kcalloc(pm->dev, n / 3, sizeof(*pm->idle), GFP_KERNEL);
	if (!pm->idle) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n / 3; i++) {
		pm->idle[i].khz = v[3 * i];
		pm->idle[i].leak_uw = v[3 * i + 1];
		pm->idle[i].wfi_uw = v[3 * i + 2];
		if (i && pm->idle[i].khz <= pm->idle[i - 1].khz) {
			ret = dev_err_probe(pm->dev, -EINVAL,
					    "%pOF: idle-power-microwatt: frequencies must ascend (%u kHz after %u kHz)\n",
					    np, pm->idle[i].khz, pm->idle[i - 1].khz);
			goto out;
		}
	}
	pm->nr_idle = n / 3;
out:
	kfree(v);
	return ret;
}

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
	if (strcmp(model, "em")) {
		if (strcmp(model, "full"))
			dev_warn(dev, "model=%s: want full or em; using full\n", model);
		ret = vcpm_parse_idle(pm, np);
		if (ret)
			return ret;
	}

	pm->khz = clk_get_rate(pm->clk) / 1000;
	pm->last_us = ktime_to_us(ktime_get());
	pm->avg_us = pm->last_us;
	pm->avg_ms = 1000;
	pm->avg_uw = -1;
	for_each_cpu(cpu, &pm->cpus) {
		pm->busy_us[cpu] = vcpm_busy_us(cpu);
		if (pm->busy_us[cpu] == (u64)-1)
			return dev_err_probe(dev, -ENODEV,
					     "no idle time accounting (needs NO_HZ)\n");
	}

	pm->nb.notifier_call = vcpm_rate_change;
	ret = devm_clk_notifier_register(dev, pm->clk, &pm->nb);
	if (ret)
		return dev_err_probe(dev, ret, "cannot follow the clock's rate\n");

	INIT_DEFERRABLE_WORK(&pm->avg_work, vcpm_avg_work);
	ret = devm_add_action(dev, vcpm_avg_stop, pm);
	if (ret)
		return ret;
	schedule_delayed_work(&pm->avg_work, msecs_to_jiffies(pm->avg_ms));

	platform_set_drvdata(pdev, pm);
	hwmon = devm_hwmon_device_register_with_info(dev, "cluster_power", pm,
						     &vcpm_chip_info, NULL);
	if (IS_ERR(hwmon))
		return PTR_ERR(hwmon);

	if (pm->nr_idle)
		dev_info(dev, "%s: CPUs %*pbl, static %u uW, leakage %u-%u uW and WFI %u-%u uW a CPU over %d OPPs\n",
			 pm->label, cpumask_pr_args(&pm->cpus), pm->static_uw,
			 pm->idle[0].leak_uw, pm->idle[pm->nr_idle - 1].leak_uw,
			 pm->idle[0].wfi_uw, pm->idle[pm->nr_idle - 1].wfi_uw,
			 pm->nr_idle);
	else
		dev_info(dev, "%s: CPUs %*pbl, static %u uW, no leakage or WFI power (%s)\n",
			 pm->label, cpumask_pr_args(&pm->cpus), pm->static_uw,
			 strcmp(model, "em") ? "no idle-power-microwatt" : "model=em");
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
