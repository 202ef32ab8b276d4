package org.gridstat.gateway.c37118.command;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A command frame. {@code command} is the 16-bit CMD word, kept whatever its value (see the
 * constants for the codes the standard names); {@code extendedFrame} is the optional EXTFRAME
 * payload that follows it, empty for none.
 */
public record CommandFrame(int version, int idCode, long soc, int fracSec, int command, byte[] extendedFrame) {
    public static final int DATA_OFF = 1;
    public static final int DATA_ON = 2;
    public static final int SEND_HEADER = 3;
    public static final int SEND_CONFIG_1 = 4;
    public static final int SEND_CONFIG_2 = 5;
    /** 2011 only. */
    public static final int SEND_CONFIG_3 = 6;
    public static final int EXTENDED_FRAME = 8;

    public CommandFrame {
        idCode &= 0xFFFF;
        soc &= 0xFFFF_FFFFL;
        command &= 0xFFFF;
        extendedFrame = extendedFrame.clone();
    }

    public CommandFrame(int version, int idCode, long soc, int fracSec, int command) {
        this(version, idCode, soc, fracSec, command, new byte[0]);
    }

    @Override
    public byte[] extendedFrame() {
        return extendedFrame.clone();
    }

    public int extendedFrameLength() {
        return extendedFrame.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommandFrame c && version == c.version && idCode == c.idCode && soc == c.soc
                && fracSec == c.fracSec && command == c.command && Arrays.equals(extendedFrame, c.extendedFrame);
    }

    @Override
    public int hashCode() {
        return ((((version * 31 + idCode) * 31 + Long.hashCode(soc)) * 31 + fracSec) * 31 + command) * 31
                + Arrays.hashCode(extendedFrame);
    }

    @Override
    public String toString() {
        return "CommandFrame[version=" + version + ", idCode=" + idCode + ", soc=" + soc + ", fracSec=0x"
                + Integer.toHexString(fracSec) + ", command=" + command + ", extendedFrame="
                + HexFormat.of().formatHex(extendedFrame) + "]";
    }
}
