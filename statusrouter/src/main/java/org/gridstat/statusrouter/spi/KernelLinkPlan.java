package org.gridstat.statusrouter.spi;

import java.net.InetSocketAddress;
import org.gridstat.core.sched.LinkSpec;

/**
 * What the kernel is asked to shape: one out-link of a router, the device its packets leave by,
 * where they go, and its capacity and class shares (bytes per second on the wire, as the broker
 * reserves them).
 *
 * @param neighbour the neighbour's data port (resolved)
 * @param priority  the neighbour's priority port, or {@code null} if the link has none
 * @param flowQueue the most packets the kernel queues per flow (as the router's flow buffers)
 */
public record KernelLinkPlan(String router, String link, String device, InetSocketAddress neighbour,
                             InetSocketAddress priority, LinkSpec spec, int flowQueue) {
}
