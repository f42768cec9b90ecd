// SPDX-License-Identifier: GPL-2.0
/*
 * The embedded ("mbed") CPU idle governor: the next wake-up from the next
 * timer and from the interrupts' own timings
 *
 * An idle CPU wakes up for a timer or for an interrupt. The tick code
 * knows the first (tick_nohz_get_sleep_length()); the IRQ timings
 * framework (kernel/irq/timings.c) learns the second: it records when
 * each device interrupt fires on each CPU, looks for a repeating pattern
 * in the intervals and predicts the next occurrence of each
 * (irq_timings_next_event()). The predicted idle duration is the earlier
 * of the two, and the governor picks the deepest enabled state whose
 * target residency fits in it and whose exit latency fits the CPU's PM
 * QoS resume latency limit. It keeps no statistics of its own: where the
 * interrupts follow no pattern it trusts the timer, as the framework then
 * predicts nothing for them, or the shortest interval it saw.
 *
 * The idea is that of the governor for embedded systems proposed by
 * Daniel Lezcano in 2019 (never merged): on embedded systems most wake-ups
 * that are not timers come from a few devices with regular patterns
 * (display refresh, audio buffers, network), which the IRQ timings
 * framework was written to predict.
 *
 * The IRQ timings are recorded only while a CPU uses this governor:
 * enabling the framework adds a timestamp to every device interrupt.
 */

#define pr_fmt(fmt) "cpuidle-mbed: " fmt

#include <linux/atomic.h>
#include <linux/cpuidle.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

#include "mbed.h"

/* CPUs using the governor, and whether the IRQ timings are on for them. */
static atomic_t mbed_users = ATOMIC_INIT(0);
static bool mbed_timings_on;
static DEFINE_MUTEX(mbed_timings_lock);

/*
 * Switching the IRQ timings' static key takes the CPU hotplug lock: do it
 * from a work item, not from the governor's enable and disable callbacks,
 * which may run with locks of the cpuidle core held.
 */
static void mbed_timings_switch(struct work_struct *work)
{
	bool want;

	mutex_lock(&mbed_timings_lock);
	want = atomic_read(&mbed_users) > 0;
	if (want != mbed_timings_on) {
		if (want)
			irq_timings_enable();
		else
			irq_timings_disable();
		mbed_timings_on = want;
	}
	mutex_unlock(&mbed_timings_lock);
}

static DECLARE_WORK(mbed_timings_work, mbed_timings_switch);

/**
 * mbed_predict - the predicted idle duration
 * @now: the time, ns (local_clock(), the IRQ timings' clock)
 * @timer_ns: time until the next timer, ns (tick_nohz_get_sleep_length())
 * @next_irq: when the next interrupt is predicted, ns on the clock of @now
 *	      (irq_timings_next_event()); U64_MAX: none predicted
 *
 * Return: the earlier of the next timer and the predicted interrupt, as a
 * duration from @now, ns; 0 for an interrupt predicted at or before @now.
 */
VISIBLE_IF_KUNIT u64 mbed_predict(u64 now, u64 timer_ns, u64 next_irq)
{
	u64 irq_ns;

	if (next_irq == U64_MAX)
		return timer_ns;
	irq_ns = next_irq > now ? next_irq - now : 0;
	return min(timer_ns, irq_ns);
}
EXPORT_SYMBOL_IF_KUNIT(mbed_predict);

/**
 * mbed_choose - the deepest idle state that fits
 * @drv: the CPU's cpuidle driver (its states, shallowest first)
 * @dev: the CPU's cpuidle device (which states are disabled)
 * @predicted_ns: the predicted idle duration, ns
 * @latency_req: the CPU's resume latency limit, ns (PM QoS)
 *
 * The deepest enabled state whose target residency is at most
 * @predicted_ns and whose exit latency is at most @latency_req. The
 * states are ordered by depth, so the search stops at the first state
 * whose exit latency is too long.
 *
 * Return: the state's index; the first enabled state when none fits, 0
 * when all are disabled.
 */
VISIBLE_IF_KUNIT int mbed_choose(struct cpuidle_driver *drv,
				 struct cpuidle_device *dev, u64 predicted_ns,
				 s64 latency_req)
{
	int i, idx = -1;

	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable)
			continue;
		if (idx < 0)
			idx = i;
		if (s->exit_latency_ns > latency_req)
			break;
		if (s->target_residency_ns <= predicted_ns)
			idx = i;
	}
	return max(idx, 0);
}
EXPORT_SYMBOL_IF_KUNIT(mbed_choose);

/**
 * mbed_select - the idle state for the CPU of @dev
 * @drv: the CPU's cpuidle driver
 * @dev: the CPU's cpuidle device
 * @stop_tick: set to false to keep the tick running
 *
 * Called by the cpuidle core with interrupts disabled.
 *
 * Return: the index of the idle state to enter.
 */
static int mbed_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t timer, delta_tick;
	u64 predicted_ns, now;
	int idx;

	if (drv->state_count <= 1 || latency_req == 0) {
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return 0;
	}

	timer = tick_nohz_get_sleep_length(&delta_tick);
	if (timer < 0) {
		timer = 0;
		delta_tick = 0;
	}
	now = local_clock();
	predicted_ns = mbed_predict(now, timer, irq_timings_next_event(now));
	idx = mbed_choose(drv, dev, predicted_ns, latency_req);

	/*
	 * A wake-up predicted within a tick period: keep the tick, which
	 * then cannot be later than the wake-up, and fit the state in the
	 * time until the tick (as the menu governor does). The tick of a
	 * CPU that already stopped it stays stopped: the predicted duration
	 * includes the next timer.
	 */
	if (predicted_ns < TICK_NSEC && !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		idx = mbed_choose(drv, dev, min_t(u64, predicted_ns, delta_tick),
				  latency_req);
	}
	return idx;
}

/**
 * mbed_reflect - the state the CPU entered
 * @dev: the CPU's cpuidle device
 * @index: the index of the state entered
 */
static void mbed_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
}

static int mbed_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	if (atomic_inc_return(&mbed_users) == 1)
		schedule_work(&mbed_timings_work);
	return 0;
}

static void mbed_disable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	if (atomic_dec_return(&mbed_users) == 0)
		schedule_work(&mbed_timings_work);
}

static struct cpuidle_governor mbed_governor = {
	.name =		"mbed",
	.rating =	15,
	.enable =	mbed_enable,
	.disable =	mbed_disable,
	.select =	mbed_select,
	.reflect =	mbed_reflect,
};

static int __init mbed_init(void)
{
	return cpuidle_register_governor(&mbed_governor);
}

postcore_initcall(mbed_init);
