/**
 * Linux HTB shaping of an interface from Java: {@link org.gridstat.htb.Htb} creates the HTB qdisc
 * {@code 1:}, its classes, their leaf queues and the u32 filters that steer flows into them, changes
 * class rates live and reads per-class statistics, over rtnetlink through the native library
 * {@code libgridstat-htb}. Where that library, the privilege or HTB itself is missing,
 * {@link org.gridstat.htb.Htb#open()} and {@link org.gridstat.htb.Htb#whyNot(String)} say why.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.htb;
