package org.gridstat.gateway.pmusim;

import java.util.List;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * What to simulate: one C37.118 stream of one or more PMUs.
 *
 * @param streamIdCode the stream's IDCODE, which commands name
 * @param version 1 (C37.118-2005) or 2 (C37.118.2-2011) in every frame's SYNC
 * @param framesPerSecond the data rate; frames fall on the UTC grid of 1/rate seconds
 * @param timeBase FRACSEC counts per second; a multiple of the rate, so that every frame's
 *        FRACSEC is exact
 * @param configCount CFGCNT in every PMU's configuration
 */
public record PmuSimSpec(int streamIdCode, int version, int framesPerSecond, int timeBase, List<SimulatedPmu> pmus,
                         int configCount) {
    public PmuSimSpec {
        pmus = List.copyOf(pmus);
        if (streamIdCode < 0 || streamIdCode > 0xFFFF) {
            throw new IllegalArgumentException("IDCODE is 16 bits: " + streamIdCode);
        }
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("version is 1 (2005) or 2 (2011): " + version);
        }
        if (framesPerSecond < 1 || framesPerSecond > Short.MAX_VALUE) {
            throw new IllegalArgumentException("frames per second must be 1 to 32767 (DATA_RATE): " + framesPerSecond);
        }
        if (timeBase < 1 || timeBase > TimeBase.MAX_SUBDIVISION) {
            throw new IllegalArgumentException("TIME_BASE must be 1 to 16777215: " + timeBase);
        }
        if (timeBase % framesPerSecond != 0) {
            throw new IllegalArgumentException("TIME_BASE " + timeBase + " is not a multiple of " + framesPerSecond
                    + " frames per second: frames would fall between FRACSEC counts");
        }
        if (pmus.isEmpty() || pmus.size() > 0xFFFF) {
            throw new IllegalArgumentException("a stream has 1 to 65535 PMUs: " + pmus.size());
        }
        if (configCount < 0 || configCount > 0xFFFF) {
            throw new IllegalArgumentException("CFGCNT is 16 bits: " + configCount);
        }
    }

    /** The same stream with another configuration count, as after a change. */
    public PmuSimSpec withConfigCount(int count) {
        return new PmuSimSpec(streamIdCode, version, framesPerSecond, timeBase, pmus, count);
    }

    public PmuSimSpec withPmus(List<SimulatedPmu> next) {
        return new PmuSimSpec(streamIdCode, version, framesPerSecond, timeBase, next, configCount);
    }
}
