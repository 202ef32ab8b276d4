/**
 * What every IEEE C37.118.2 frame shares: the SYNC word and frame types, the common header
 * (FRAMESIZE, IDCODE, SOC, FRACSEC), the CRC-CCITT check word, time quality bits and the reasons a
 * frame is refused. The byte layouts are documented in {@code docs/c37118.md}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.c37118.frame;
