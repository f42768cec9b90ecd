/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mbed governor's state choice, for its KUnit tests (mbed_kunit.c).
 */
#ifndef _CPUIDLE_GOV_MBED_H
#define _CPUIDLE_GOV_MBED_H

#include <linux/cpuidle.h>
#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
u64 mbed_predict(u64 now, u64 timer_ns, u64 next_irq);
int mbed_choose(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		u64 predicted_ns, s64 latency_req);
#endif

#endif /* _CPUIDLE_GOV_MBED_H */
