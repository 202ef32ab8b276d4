package org.gridstat.node.testbed;

import org.gridstat.htb.netns.VethLink;
import org.gridstat.statusrouter.spi.KernelShaping;

/**
 * A testbed link carried through a veth pair and shaped by the kernel: router {@code from} sends
 * its link to {@code to} over {@code veth}'s near end, whose HTB qdisc {@code shaping} builds and
 * keeps in step with the link's flows; a relay in the far namespace hands the packets to
 * {@code to}, after the link's delay.
 */
public record KernelBottleneck(String from, String to, VethLink veth, KernelShaping shaping) {
}
