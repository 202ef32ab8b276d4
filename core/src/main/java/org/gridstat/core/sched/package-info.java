/**
 * The per-out-link scheduler: a strict-priority control queue, earliest-deadline-first HRT and
 * LRT classes, a FIFO best-effort class, bounded per-flow buffers and HTB link sharing. Time is
 * passed in by the caller, so the simulator drives the same objects as the routers.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.4.0")
package org.gridstat.core.sched;
