// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: any text through the reader of energy_model dumps,
 * which shares its parsing with the debugfs directory reader. Build with
 * 'make fuzz'.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../em.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_model m;

	em_lines_load_mem(&m, "fuzz.txt", (const char *)data, size);
	em_model_free(&m);
	return 0;
}
