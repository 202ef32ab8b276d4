/**
 * A router's out-link mirrored onto a device's HTB qdisc ({@link org.gridstat.htb.mirror.LinkClassTree}),
 * and the kernel-shaping service routers bind ({@link org.gridstat.htb.mirror.HtbKernelShaping}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.htb.mirror;
