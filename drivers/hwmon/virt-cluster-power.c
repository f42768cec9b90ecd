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
 * "idle-power-microwatt" DT property, which the maker of the virtual
 * board's DT computes from published Odroid-XU3 measurements (the model,
 * P_leak = A * exp(B * V) and P_wfi = C * V^2 * f: see
 * Documentation/admin-guide/odroid-eas.rst); absent, both are 0. P_EM(f)
 * in uW comes from the CPUs' perf domain (em_cpu_get()),
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
 *
 * Idle states deeper than WFI (a board whose CPU nodes have
 * "cpu-idle-states", entered by a cpuidle driver that calls
 * cpu_pm_enter(), such as cpuidle-psci) cost less. The meter's optional
 * "idle-state-power" property gives, per idle state node, the share of
 * the two idle terms that remains while a CPU is in it, in 1/1000:
 *
 *	E += (P_leak(V) * max over the online CPUs of leak_share
 *	      + P_wfi(f, V) * sum over the online CPUs of wfi_share) * t
 *
 * A busy CPU, or one in WFI, has both shares at 1000: the cluster keeps
 * its leakage until all its online CPUs are in states that cut it (a
 * cluster power-down), and each CPU's WFI power goes with its own state
 * (a CPU power-down). The state a CPU is in comes from the cpu_idle
 * tracepoint (the index the idle loop enters, state 0 being WFI and the
 * CPU node's "cpu-idle-states" following in order, as
 * drivers/cpuidle/dt_idle_states.c numbers them) and from the CPU PM
 * notifier (from CPU_PM_ENTER to CPU_PM_EXIT the CPU is in that state).
 */

#include <linux/clk.h>
#include <linux/cpu_pm.h>
#include <linux/cpuidle.h>
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
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/workqueue.h>
#include <trace/events/power.h>

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

/* The whole of an idle term: 1000/1000. */
#define VCPM_SHARE_ALL	1000

/**
 * struct vcpm_cpu - a CPU's idle states, as its meter counts them
 * @wfi_share: per cpuidle state index, the share of the CPU's WFI power
 *	       that remains in it, 1/1000
 * @leak_share: per index, the share of the cluster's leakage that the
 *		cluster keeps while all its online CPUs are in such states,
 *		1/1000
 * @idle_idx: the state the idle loop is entering, -1 out of it
 * @cur_wfi: the CPU's WFI share now, 1/1000
 * @cur_leak: the CPU's leakage share now, 1/1000
 */
struct vcpm_cpu {
	u16 wfi_share[CPUIDLE_STATE_MAX];
	u16 leak_share[CPUIDLE_STATE_MAX];
	int idle_idx;
	u16 cur_wfi;
	u16 cur_leak;
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
 * @idle_states: the CPUs' idle states have power shares ("idle-state-power")
 * @cpu: per CPU id, the idle state shares of the meter's CPUs
 * @pm_nb: CPU PM notifier: idle state entries and exits
 * @idle_lock: serialises the idle state accounting below (raw: taken in
 *	       the idle path)
 * @idle_ns: end of the accounted idle state time, ns (ktime_get())
 * @wfi_saved: WFI power not drawn since the last integration, in 1/1000
 *	       of one CPU's WFI power times ns
 * @leak_saved: leakage not drawn since the last integration, in 1/1000 of
 *		the cluster's leakage times ns
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
	bool idle_states;
	struct vcpm_cpu *cpu;
	struct notifier_block pm_nb;
	raw_spinlock_t idle_lock;
	u64 idle_ns;
	u64 wfi_saved;
	u64 leak_saved;
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
 * Idle power of the cluster at @khz: at the lowest OPP at or above @khz
 * (the EM's rule). NULL with no idle power.
 */
static const struct vcpm_idle *vcpm_idle_power(struct vcpm *pm,
					       unsigned long khz)
{
	int i;

	if (!pm->nr_idle)
		return NULL;
	for (i = 0; i < pm->nr_idle - 1; i++)
		if (pm->idle[i].khz >= khz)
			break;
	return &pm->idle[i];
}

/*
 * Account the idle states' savings up to @now (ns), with the CPUs' shares
 * as they were since the last call. Called with @pm->idle_lock held.
 */
static void vcpm_idle_advance(struct vcpm *pm, u64 now)
{
	u64 dt = now > pm->idle_ns ? now - pm->idle_ns : 0;
	unsigned int leak = 0, wfi = 0;
	bool online = false;
	int cpu;

	pm->idle_ns = max(pm->idle_ns, now);
	if (!dt)
		return;
	for_each_cpu_and(cpu, &pm->cpus, cpu_online_mask) {
		leak = max_t(unsigned int, leak, pm->cpu[cpu].cur_leak);
		wfi += VCPM_SHARE_ALL - pm->cpu[cpu].cur_wfi;
		online = true;
	}
	if (!online)
		return;
	pm->wfi_saved += (u64)wfi * dt;
	pm->leak_saved += (u64)(VCPM_SHARE_ALL - leak) * dt;
}

/* @cpu enters an idle state with these shares, or leaves it (all 1000). */
static void vcpm_idle_set(struct vcpm *pm, int cpu, u16 wfi, u16 leak)
{
	struct vcpm_cpu *c = &pm->cpu[cpu];
	unsigned long flags;

	if (c->cur_wfi == wfi && c->cur_leak == leak)
		return;
	raw_spin_lock_irqsave(&pm->idle_lock, flags);
	vcpm_idle_advance(pm, ktime_get_ns());
	c->cur_wfi = wfi;
	c->cur_leak = leak;
	raw_spin_unlock_irqrestore(&pm->idle_lock, flags);
}

/* The index of the cpuidle state the idle loop enters on @cpu. */
static void vcpm_cpu_idle(void *data, unsigned int state, unsigned int cpu)
{
	struct vcpm *pm = data;

	if (cpumask_test_cpu(cpu, &pm->cpus))
		pm->cpu[cpu].idle_idx = state == PWR_EVENT_EXIT ? -1 : state;
}

/* A state deeper than WFI: from CPU_PM_ENTER to CPU_PM_EXIT, on the CPU. */
static int vcpm_cpu_pm(struct notifier_block *nb, unsigned long action,
		       void *data)
{
	struct vcpm *pm = container_of(nb, struct vcpm, pm_nb);
	int cpu = smp_processor_id();
	int idx;

	if (!cpumask_test_cpu(cpu, &pm->cpus))
		return NOTIFY_DONE;
	switch (action) {
	case CPU_PM_ENTER:
		idx = pm->cpu[cpu].idle_idx;
		if (idx > 0 && idx < CPUIDLE_STATE_MAX)
			vcpm_idle_set(pm, cpu, pm->cpu[cpu].wfi_share[idx],
				      pm->cpu[cpu].leak_share[idx]);
		break;
	case CPU_PM_EXIT:
	case CPU_PM_ENTER_FAILED:
		vcpm_idle_set(pm, cpu, VCPM_SHARE_ALL, VCPM_SHARE_ALL);
		break;
	default:
		return NOTIFY_DONE;
	}
	return NOTIFY_OK;
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
	const struct vcpm_idle *idle = vcpm_idle_power(pm, pm->khz);
	u64 now_ns = ktime_get_ns(), now_us = div_u64(now_ns, NSEC_PER_USEC);
	u64 base_pj, saved_pj = 0, wfi_saved, leak_saved;
	unsigned long flags;
	int cpu;

	for_each_cpu(cpu, &pm->cpus) {
		u64 busy = vcpm_busy_us(cpu);

		if (busy > pm->busy_us[cpu])
			pm->energy_pj += (u64)uw * (busy - pm->busy_us[cpu]);
		pm->busy_us[cpu] = busy;
	}
	base_pj = pm->static_uw;
	if (idle)
		base_pj += idle->leak_uw + (u64)idle->wfi_uw *
			   cpumask_weight_and(&pm->cpus, cpu_online_mask);
	base_pj *= now_us - pm->last_us;

	if (pm->idle_states) {
		raw_spin_lock_irqsave(&pm->idle_lock, flags);
		vcpm_idle_advance(pm, now_ns);
		wfi_saved = pm->wfi_saved;
		leak_saved = pm->leak_saved;
		pm->wfi_saved = 0;
		pm->leak_saved = 0;
		raw_spin_unlock_irqrestore(&pm->idle_lock, flags);
		/* uW * 1/1000 * ns = 1e-6 pJ */
		if (idle)
			saved_pj = mul_u64_u64_div_u64(idle->wfi_uw, wfi_saved,
						       1000000) +
				   mul_u64_u64_div_u64(idle->leak_uw, leak_saved,
						       1000000);
	}
	/* Never more than the interval's idle energy: the count only grows. */
	pm->energy_pj += base_pj - min(saved_pj, base_pj);
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

/*
 * The meter's "idle-state-power": <&state wfi-share leakage-share> per
 * idle state node, shares in 1/1000. Each state in the "cpu-idle-states"
 * of the meter's CPUs must have one. Absent: deep idle states cost as
 * much as WFI.
 */
static int vcpm_parse_idle_states(struct vcpm *pm, struct device_node *np)
{
	struct of_phandle_args args;
	struct device_node *cn, *sn;
	int cpu, i, j, n;

	pm->cpu = devm_kcalloc(pm->dev, nr_cpu_ids, sizeof(*pm->cpu), GFP_KERNEL);
	if (!pm->cpu)
		return -ENOMEM;
	for_each_cpu(cpu, &pm->cpus) {
		pm->cpu[cpu].idle_idx = -1;
		pm->cpu[cpu].cur_wfi = VCPM_SHARE_ALL;
		pm->cpu[cpu].cur_leak = VCPM_SHARE_ALL;
		for (i = 0; i < CPUIDLE_STATE_MAX; i++) {
			pm->cpu[cpu].wfi_share[i] = VCPM_SHARE_ALL;
			pm->cpu[cpu].leak_share[i] = VCPM_SHARE_ALL;
		}
	}
	if (!of_property_present(np, "idle-state-power"))
		return 0;

	for_each_cpu(cpu, &pm->cpus) {
		cn = of_cpu_device_node_get(cpu);
		/* dt_idle_states numbers a CPU's DT states from 1: 0 is WFI */
		for (i = 0; i < CPUIDLE_STATE_MAX - 1; i++) {
			sn = of_parse_phandle(cn, "cpu-idle-states", i);
			if (!sn)
				break;
			for (j = 0; ; j++) {
				if (of_parse_phandle_with_fixed_args(np, "idle-state-power",
								     2, j, &args)) {
					n = dev_err_probe(pm->dev, -EINVAL,
							  "%pOF: idle-state-power has no <&state wfi leakage> for %pOF of CPU%d\n",
							  np, sn, cpu);
					goto err;
				}
				of_node_put(args.np);
				if (args.np == sn)
					break;
			}
			if (args.args[0] > VCPM_SHARE_ALL || args.args[1] > VCPM_SHARE_ALL) {
				n = dev_err_probe(pm->dev, -EINVAL,
						  "%pOF: idle-state-power of %pOF: shares are 0 to 1000, not %u and %u\n",
						  np, sn, args.args[0], args.args[1]);
				goto err;
			}
			pm->cpu[cpu].wfi_share[i + 1] = args.args[0];
			pm->cpu[cpu].leak_share[i + 1] = args.args[1];
			of_node_put(sn);
		}
		of_node_put(cn);
	}
	pm->idle_states = true;
	return 0;
err:
	of_node_put(sn);
	of_node_put(cn);
	return n;
}

static void vcpm_idle_stop(void *data)
{
	struct vcpm *pm = data;

	cpu_pm_unregister_notifier(&pm->pm_nb);
	unregister_trace_cpu_idle(vcpm_cpu_idle, pm);
	tracepoint_synchronize_unregister();
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
	raw_spin_lock_init(&pm->idle_lock);
	ret = vcpm_parse_idle_states(pm, np);
	if (ret)
		return ret;
	if (!pm->nr_idle)
		pm->idle_states = false;

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

	if (pm->idle_states) {
		pm->idle_ns = ktime_get_ns();
		ret = register_trace_cpu_idle(vcpm_cpu_idle, pm);
		if (ret)
			return dev_err_probe(dev, ret, "cannot follow the idle loop\n");
		pm->pm_nb.notifier_call = vcpm_cpu_pm;
		ret = cpu_pm_register_notifier(&pm->pm_nb);
		if (ret) {
			unregister_trace_cpu_idle(vcpm_cpu_idle, pm);
			tracepoint_synchronize_unregister();
			return dev_err_probe(dev, ret, "cannot follow idle states\n");
		}
		ret = devm_add_action_or_reset(dev, vcpm_idle_stop, pm);
		if (ret)
			return ret;
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
		dev_info(dev, "%s: CPUs %*pbl, static %u uW, leakage %u-%u uW and WFI %u-%u uW a CPU over %d OPPs%s\n",
			 pm->label, cpumask_pr_args(&pm->cpus), pm->static_uw,
			 pm->idle[0].leak_uw, pm->idle[pm->nr_idle - 1].leak_uw,
			 pm->idle[0].wfi_uw, pm->idle[pm->nr_idle - 1].wfi_uw,
			 pm->nr_idle, pm->idle_states ? ", idle states' shares" : "");
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
