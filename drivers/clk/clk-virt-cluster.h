/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated CPU cluster clock for virtual boards: the functions its KUnit
 * tests call (visible only when CONFIG_KUNIT is enabled, in the
 * EXPORTED_FOR_KUNIT_TESTING namespace)
 */
#ifndef __CLK_VIRT_CLUSTER_H
#define __CLK_VIRT_CLUSTER_H

#if IS_ENABLED(CONFIG_KUNIT)
struct clk_hw;
struct device_node;

struct clk_hw *virt_cluster_clk_hw_register(struct device_node *np,
					    const char *name,
					    const unsigned long *rates,
					    unsigned int num_rates);
void virt_cluster_clk_hw_unregister(struct clk_hw *hw);
#endif

#endif /* __CLK_VIRT_CLUSTER_H */
