/**
 * The subscriber side of the phasor gateway, its pure parts: aligning the samples of several PMUs
 * by timestamp ({@link org.gridstat.gateway.egress.FrameAligner}, on the caller's monotonic
 * clock), and rebuilding C37.118 data frames from them ({@link
 * org.gridstat.gateway.egress.OutputFrameBuilder}), absent PMUs filled as the standard's absent
 * data ({@link org.gridstat.gateway.egress.AbsentData}). No I/O. The policy is documented in
 * {@code docs/c37118.md}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.egress;
