package org.gridstat.statusrouter.spi;

/**
 * The kernel's shaping of a router's out-links: an HTB qdisc on the egress interface whose class
 * tree mirrors the link's (link, class, flow), provided by the kernel-shaping bundle. A router
 * binds it when installed; a link whose {@code kernel.shaping} line names a device is then shaped
 * by the kernel, and by the router's own scheduler otherwise.
 */
public interface KernelShaping {
    /**
     * Builds the link's tree on its device (root qdisc, link and class levels; flows come with
     * {@link KernelLink#apply}).
     *
     * @throws Exception saying why the kernel cannot shape this link (no privilege, no HTB in the
     *                   kernel, an unknown device, no native library for the platform): the router
     *                   logs it once and shapes the link itself
     */
    KernelLink open(KernelLinkPlan plan) throws Exception;
}
