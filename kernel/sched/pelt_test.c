// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of PELT under the PELT multiplier (sched_pelt_multiplier=)
 *
 * A signal is driven through pelt_update_shift(), the scheduler's own
 * ___update_load_sum() and ___update_load_avg() with the multiplier given,
 * on a clock of its own: nothing of the running scheduler is touched.
 * Half-life: 32 periods (LOAD_AVG_PERIOD) of 1024 units of 1024 ns
 * (kernel/sched/pelt.c counts time in 1024 ns units, "about 1 us"): a
 * period is 1.048576 ms, so 33.554 ms of running time to half of the
 * maximum at multiplier 1, 16.777 ms at 2, 8.389 ms at 4.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/mmu_context.h>

#include "sched.h"
#include "pelt.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The clock's step, ns: fine against a half-life of 8 ms. */
#define PELT_TEST_STEP_NS	(100 * NSEC_PER_USEC)
/* One PELT period, 1024 * 1024 ns, at multiplier 1 */
#define PELT_TEST_PERIOD_NS	(1024ULL * 1024)
/* 32 periods, ns */
#define PELT_TEST_HALF_LIFE_NS	(LOAD_AVG_PERIOD * PELT_TEST_PERIOD_NS)

struct pelt_test_signal {
	struct sched_avg sa;
	u64 now;
	unsigned int lshift;
};

/* Advance @s by @ns of time, running or not, in steps of the test. */
static void pelt_test_run(struct pelt_test_signal *s, u64 ns, bool running)
{
	u64 end = s->now + ns;

	while (s->now < end) {
		s->now += PELT_TEST_STEP_NS;
		pelt_update_shift(s->now, &s->sa, running ? NICE_0_LOAD : 0,
				  running, running, s->lshift);
	}
}

/*
 * Run or sleep until util_avg crosses @target (upwards while running,
 * downwards while sleeping); the time it took, ns, or 0 after 1 s.
 */
static u64 pelt_test_time_to(struct pelt_test_signal *s, unsigned long target,
			     bool running)
{
	u64 start = s->now;

	while (s->now - start < NSEC_PER_SEC) {
		unsigned long util = READ_ONCE(s->sa.util_avg);

		if (running ? util >= target : util <= target)
			return s->now - start;
		pelt_test_run(s, PELT_TEST_STEP_NS, running);
	}
	return 0;
}

static const unsigned int pelt_test_shifts[] = { 0, 1, 2 };

static void pelt_test_shift_desc(const unsigned int *shift, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "multiplier %u (half-life %u ms)",
		 1U << *shift, LOAD_AVG_PERIOD >> *shift);
}

KUNIT_ARRAY_PARAM(pelt_test_shift, pelt_test_shifts, pelt_test_shift_desc);

/*
 * PELT decays its sums only when a period ends: within one, util_avg
 * follows the exponential of whole periods, a period (1024 * 1024 ns,
 * shifted by the multiplier) at most off it; and the test sees a crossing
 * at the end of the step of its clock in which it came. So the time taken
 * is the half-life within one period, plus up to one step late: with
 * 100 us steps, 33.900, 17.200 and 8.500 ms to rise to 512 and to decay
 * to half, for half-lives of 33.554, 16.777 and 8.389 ms.
 */
static void pelt_test_expect_half_life(struct kunit *test, u64 took,
				       unsigned int lshift)
{
	u64 want = PELT_TEST_HALF_LIFE_NS >> lshift;
	u64 period = PELT_TEST_PERIOD_NS >> lshift;

	KUNIT_EXPECT_GT_MSG(test, took, 0ULL, "no crossing within 1 s");
	KUNIT_EXPECT_GE_MSG(test, took + period, want,
			    "took %llu ns, want %llu ns within one period (%llu ns)",
			    took, want, period);
	KUNIT_EXPECT_LE_MSG(test, took, want + period + PELT_TEST_STEP_NS,
			    "took %llu ns, want %llu ns within one period (%llu ns) and one step",
			    took, want, period);
}

/* From long sleep to always running: util_avg reaches 512 in a half-life. */
static void pelt_test_rise(struct kunit *test)
{
	const unsigned int *shift = test->param_value;
	struct pelt_test_signal s = { .lshift = *shift };

	pelt_test_run(&s, NSEC_PER_SEC, false);
	KUNIT_ASSERT_EQ(test, READ_ONCE(s.sa.util_avg), 0UL);
	pelt_test_expect_half_life(test, pelt_test_time_to(&s, 512, true), *shift);
}

/* From always running (its steady value) to asleep: half of it, as fast. */
static void pelt_test_decay(struct kunit *test)
{
	const unsigned int *shift = test->param_value;
	struct pelt_test_signal s = { .lshift = *shift };
	unsigned long top;

	pelt_test_run(&s, NSEC_PER_SEC, true);
	top = READ_ONCE(s.sa.util_avg);
	/* The maximum is LOAD_AVG_MAX's, a few units under 1024. */
	KUNIT_EXPECT_GE(test, top, 1000UL);
	KUNIT_EXPECT_LE(test, top, 1024UL);
	pelt_test_expect_half_life(test, pelt_test_time_to(&s, top / 2, false),
				   *shift);
}

/*
 * Mean util_avg over the last second of a periodic signal, @run_ns busy
 * in each @period_ns, after 2 s to settle.
 */
static unsigned long pelt_test_periodic_mean(unsigned int lshift, u64 run_ns,
					     u64 period_ns)
{
	struct pelt_test_signal s = { .lshift = lshift };
	u64 sum = 0, n = 0;
	u64 t;

	for (t = 0; t < 3ULL * NSEC_PER_SEC; t += period_ns) {
		u64 end = s.now + period_ns;

		while (s.now < end) {
			pelt_test_run(&s, PELT_TEST_STEP_NS, s.now - t < run_ns);
			if (t >= 2ULL * NSEC_PER_SEC) {
				sum += READ_ONCE(s.sa.util_avg);
				n++;
			}
		}
	}
	return div64_u64(sum, n);
}

/*
 * A periodic task (16 ms period, 25% busy) has the same mean util_avg
 * under every multiplier (within 3%): the multiplier changes how fast util
 * follows a change, not where it settles.
 */
static void pelt_test_periodic(struct kunit *test)
{
	const unsigned int *shift = test->param_value;
	u64 period = 16 * NSEC_PER_MSEC, run = period / 4;
	unsigned long ref = pelt_test_periodic_mean(0, run, period);
	unsigned long mean = pelt_test_periodic_mean(*shift, run, period);

	/* 25% of the maximum, about 256 */
	KUNIT_EXPECT_GE(test, ref, 240UL);
	KUNIT_EXPECT_LE(test, ref, 262UL);
	KUNIT_EXPECT_GE_MSG(test, mean * 100, ref * 97,
			    "mean util %lu, %lu at multiplier 1", mean, ref);
	KUNIT_EXPECT_LE_MSG(test, mean * 100, ref * 103,
			    "mean util %lu, %lu at multiplier 1", mean, ref);
}

static struct kunit_case pelt_test_cases[] = {
	KUNIT_CASE_PARAM(pelt_test_rise, pelt_test_shift_gen_params),
	KUNIT_CASE_PARAM(pelt_test_decay, pelt_test_shift_gen_params),
	KUNIT_CASE_PARAM(pelt_test_periodic, pelt_test_shift_gen_params),
	{}
};

static struct kunit_suite pelt_test_suite = {
	.name = "sched_pelt_multiplier",
	.test_cases = pelt_test_cases,
};

kunit_test_suite(pelt_test_suite);

MODULE_DESCRIPTION("KUnit tests of PELT under the PELT multiplier");
MODULE_LICENSE("GPL");
