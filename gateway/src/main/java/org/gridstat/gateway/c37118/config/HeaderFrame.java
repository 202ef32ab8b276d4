package org.gridstat.gateway.c37118.config;

/**
 * A header frame: human-readable text about the PMU, its sources, scaling and filters. The text is
 * ASCII by the standard; it is held one char per byte (ISO-8859-1) so any byte re-encodes as sent.
 */
public record HeaderFrame(int version, int idCode, long soc, int fracSec, String text) {
    public HeaderFrame {
        idCode &= 0xFFFF;
        soc &= 0xFFFF_FFFFL;
        if (text.chars().anyMatch(ch -> ch > 0xFF)) {
            throw new IllegalArgumentException("header text is bytes: no char above 0xFF");
        }
    }
}
