/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated CPU cluster clock for virtual boards
 */
#ifndef __LINUX_CLK_VIRT_CLUSTER_H
#define __LINUX_CLK_VIRT_CLUSTER_H

struct clk_hw;
struct device_node;

struct clk_hw *virt_cluster_clk_hw_register(struct device_node *np,
					    const char *name,
					    const unsigned long *rates,
					    unsigned int num_rates);
void virt_cluster_clk_hw_unregister(struct clk_hw *hw);

#endif /* __LINUX_CLK_VIRT_CLUSTER_H */
