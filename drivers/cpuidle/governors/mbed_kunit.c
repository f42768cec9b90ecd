// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the mbed idle governor: its prediction from synthetic
 * interrupt series run through the IRQ timings framework, and the idle
 * state it then chooses.
 *
 * The series are recorded on the test's CPU with interrupts disabled, at
 * times 10 s after the test started, so that the statistics of the CPU's
 * real interrupts are more than a second old then: the framework drops
 * them (they predict nothing) and only the series counts.
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/cpuidle.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/log2.h>
#include <linux/sched/clock.h>
#include <linux/time64.h>

#include "mbed.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* An interrupt number no device has: its statistics are the test's own. */
#define TEST_IRQ	60000

/* Intervals of the series, us; the timer is farther than all of them. */
#define TIMER_NS	(100 * NSEC_PER_MSEC)

/*
 * A cluster's idle states as a board has them: WFI, a CPU power-down and
 * a cluster power-down (exit latency including entry, target residency).
 */
static const struct {
	const char *name;
	u64 exit_us;
	u64 residency_us;
} test_states[] = {
	{ "WFI", 1, 1 },
	{ "cpu-off", 100, 500 },
	{ "cluster-off", 800, 5000 },
};

struct mbed_test {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
};

static int mbed_test_init(struct kunit *test)
{
	struct mbed_test *t;
	int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < ARRAY_SIZE(test_states); i++) {
		strscpy(t->drv.states[i].name, test_states[i].name);
		t->drv.states[i].exit_latency_ns = test_states[i].exit_us * NSEC_PER_USEC;
		t->drv.states[i].target_residency_ns =
			test_states[i].residency_us * NSEC_PER_USEC;
	}
	t->drv.state_count = ARRAY_SIZE(test_states);
	test->priv = t;
	return 0;
}

/*
 * Record interrupts at @base + @at_us[i] us on this CPU and ask the
 * framework, @after_us after the last one, when the next comes.
 * Return: the predicted time less the last interrupt's, us; U64_MAX for
 * no prediction.
 */
static u64 test_series(struct kunit *test, const u64 *at_us, int n, u64 after_us)
{
	u64 base, last, next;
	unsigned long flags;
	int i;

	KUNIT_ASSERT_EQ(test, irq_timings_alloc(TEST_IRQ), 0);
	local_irq_save(flags);
	base = local_clock() + 10ULL * NSEC_PER_SEC;
	/* Takes in what was recorded before: real interrupts, now stale. */
	irq_timings_next_event(base);
	for (i = 0; i < n; i++)
		irq_timings_kunit_push(TEST_IRQ, base + at_us[i] * NSEC_PER_USEC);
	last = base + at_us[n - 1] * NSEC_PER_USEC;
	next = irq_timings_next_event(last + after_us * NSEC_PER_USEC);
	local_irq_restore(flags);
	irq_timings_free(TEST_IRQ);

	return next == U64_MAX ? U64_MAX : div_u64(next - last, NSEC_PER_USEC);
}

/* The choice @after_us after the series' last interrupt, timer far. */
static int test_choice(struct mbed_test *t, u64 next_us, u64 after_us)
{
	u64 predicted;

	if (next_us == U64_MAX)
		predicted = TIMER_NS;
	else
		predicted = mbed_predict(after_us * NSEC_PER_USEC, TIMER_NS,
					 next_us * NSEC_PER_USEC);
	return mbed_choose(&t->drv, &t->dev, predicted, S64_MAX);
}

/* The earlier of the timer and the interrupt; an interrupt due is now. */
static void mbed_test_predict(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mbed_predict(1000, 5000, U64_MAX), 5000);
	KUNIT_EXPECT_EQ(test, mbed_predict(1000, 5000, 3000), 2000);
	KUNIT_EXPECT_EQ(test, mbed_predict(1000, 1500, 3000), 1500);
	KUNIT_EXPECT_EQ(test, mbed_predict(1000, 5000, 1000), 0);
	KUNIT_EXPECT_EQ(test, mbed_predict(1000, 5000, 400), 0);
}

/* Deepest state whose residency fits, within the latency limit. */
static void mbed_test_choose(struct kunit *test)
{
	struct mbed_test *t = test->priv;
	struct cpuidle_driver *drv = &t->drv;
	struct cpuidle_device *dev = &t->dev;

	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, 0, S64_MAX), 0);
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, 499 * NSEC_PER_USEC, S64_MAX), 0);
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, 500 * NSEC_PER_USEC, S64_MAX), 1);
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, 4999 * NSEC_PER_USEC, S64_MAX), 1);
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, 5 * NSEC_PER_MSEC, S64_MAX), 2);
	/* PM QoS: a 800 us cluster exit is too slow for a 500 us limit. */
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, TIMER_NS, 500 * NSEC_PER_USEC), 1);
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, TIMER_NS, 50 * NSEC_PER_USEC), 0);
	/* Disabled states are passed over, the first enabled is the floor. */
	dev->states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, TIMER_NS, S64_MAX), 1);
	dev->states_usage[0].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, 100 * NSEC_PER_USEC, S64_MAX), 1);
	dev->states_usage[1].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, mbed_choose(drv, dev, TIMER_NS, S64_MAX), 0);
}

/*
 * A periodic interrupt (a 60 Hz display refresh, 16667 us): the next is
 * one period after the last. Right after an interrupt the CPU can sleep
 * in the cluster state; 16.5 ms after it only in WFI.
 */
static void mbed_test_periodic(struct kunit *test)
{
	struct mbed_test *t = test->priv;
	u64 at[20], next;
	int i;

	for (i = 0; i < ARRAY_SIZE(at); i++)
		at[i] = i * 16667;
	next = test_series(test, at, ARRAY_SIZE(at), 100);
	KUNIT_EXPECT_EQ(test, next, 16667);
	KUNIT_EXPECT_EQ(test, test_choice(t, next, 100), 2);
	next = test_series(test, at, ARRAY_SIZE(at), 16500);
	KUNIT_EXPECT_EQ(test, next, 16667);
	KUNIT_EXPECT_EQ(test, test_choice(t, next, 16500), 0);
	/* Too few intervals for a pattern: no prediction, the timer rules. */
	next = test_series(test, at, 8, 100);
	KUNIT_EXPECT_EQ(test, next, U64_MAX);
	KUNIT_EXPECT_EQ(test, test_choice(t, next, 100), 2);
}

/*
 * Bursts (a network card, an audio DMA refill): 4 interrupts 200 us apart
 * every 10 ms. Inside a burst the next comes in 200 us: WFI, where the
 * timer alone would give the cluster state; after a burst's last, the gap
 * follows: the cluster state.
 */
static void mbed_test_bursty(struct kunit *test)
{
	struct mbed_test *t = test->priv;
	u64 at[26], next;
	int i;

	for (i = 0; i < ARRAY_SIZE(at); i++)
		at[i] = (i / 4) * 10000 + (i % 4) * 200;
	/* The series ends with a burst's second interrupt (i = 25). */
	next = test_series(test, at, ARRAY_SIZE(at), 20);
	KUNIT_EXPECT_EQ(test, next, 200);
	KUNIT_EXPECT_EQ(test, test_choice(t, next, 20), 0);
	/* It ends with a burst's last (i = 23): 10000 - 600 us to the next. */
	next = test_series(test, at, 24, 20);
	KUNIT_EXPECT_EQ(test, next, 9400);
	KUNIT_EXPECT_EQ(test, test_choice(t, next, 20), 2);
}

/*
 * Interrupts at random intervals of 1 to 30 ms (a fixed sequence): no
 * pattern repeats, and the framework predicts the next at the average of
 * the intervals in the shortest intervals' class: a power-of-two bucket of
 * (ns >> 10) / 4, so a bucket b holds 4096 << b to 8192 << b ns. With this
 * sequence the shortest is 2644 us, its bucket 2097 to 4194 us: past the
 * CPU state's residency, short of the cluster state's.
 */
static void mbed_test_random(struct kunit *test)
{
	struct mbed_test *t = test->priv;
	u64 at[24], next, shortest = U64_MAX, lo_ns;
	u32 x = 12345;
	int i;

	at[0] = 0;
	for (i = 1; i < ARRAY_SIZE(at); i++) {
		/* Numerical Recipes' LCG: a sequence the test fixes. */
		x = x * 1664525 + 1013904223;
		at[i] = at[i - 1] + 1000 + (x >> 8) % 29000;
		shortest = min(shortest, at[i] - at[i - 1]);
	}
	KUNIT_EXPECT_EQ(test, shortest, 2644);
	lo_ns = 4096ULL << ilog2((shortest * NSEC_PER_USEC >> 10) / 4);
	next = test_series(test, at, ARRAY_SIZE(at), 100);
	KUNIT_EXPECT_GE(test, next * NSEC_PER_USEC, lo_ns);
	KUNIT_EXPECT_LT(test, next * NSEC_PER_USEC, 2 * lo_ns);
	KUNIT_EXPECT_EQ(test, test_choice(t, next, 100), 1);
}

static struct kunit_case mbed_test_cases[] = {
	KUNIT_CASE(mbed_test_predict),
	KUNIT_CASE(mbed_test_choose),
	KUNIT_CASE(mbed_test_periodic),
	KUNIT_CASE(mbed_test_bursty),
	KUNIT_CASE(mbed_test_random),
	{}
};

static struct kunit_suite mbed_test_suite = {
	.name = "cpuidle_mbed",
	.init = mbed_test_init,
	.test_cases = mbed_test_cases,
};

kunit_test_suite(mbed_test_suite);

MODULE_DESCRIPTION("KUnit tests of the mbed cpuidle governor");
MODULE_LICENSE("GPL");
