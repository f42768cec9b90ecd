// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: any blob through the DTB reader, the EM computation
 * (for arm and arm64) and the checks. Build with 'make fuzz'.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../em.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_check_options copt = { .legacy = true };
	static struct em_model m;
	static FILE *null;
	struct em_options opt = { };

	if (!null)
		null = fopen("/dev/null", "w");
	for (opt.arch = EM_ARCH_ARM; opt.arch <= EM_ARCH_ARM64; opt.arch++) {
		em_model_load_mem(&m, "fuzz.dtb", data, size, &opt);
		if (!m.bad_file && null)
			em_check(null, &m, &copt);
		em_model_free(&m);
	}
	return 0;
}
