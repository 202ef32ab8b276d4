package org.gridstat.gateway.c37118.config;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.gateway.c37118.frame.BodyCursor;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * Configuration frames 1 and 2. After the common header: TIME_BASE (4), NUM_PMU (2); per PMU STN
 * (16), IDCODE (2), FORMAT (2), PHNMR, ANNMR, DGNMR (2 each), CHNAM (16 per phasor, per analog and
 * 16 per digital word), PHUNIT (4 per phasor), ANUNIT (4 per analog), DIGUNIT (4 per digital
 * word), FNOM (2), CFGCNT (2); then DATA_RATE (2) and CHK. Not thread safe (one cursor).
 */
public final class ConfigFrameCodec {
    private static final int FIXED_PER_PMU = ChannelName.FIXED_LENGTH + 2 + 2 + 6 + 2 + 2;

    private final BodyCursor cursor = new BodyCursor();

    public Decoded<ConfigFrame> decode(ByteBuffer b, int offset, int length) {
        FrameReject reject = CommonHeader.check(b, offset, length);
        if (reject != FrameReject.NONE) {
            return Decoded.rejected(reject);
        }
        FrameType type = CommonHeader.type(b, offset);
        if (type != FrameType.CONFIG_1 && type != FrameType.CONFIG_2) {
            return Decoded.rejected(FrameReject.WRONG_FRAME_TYPE);
        }
        BodyCursor c = cursor.wrap(b, offset + CommonHeader.LENGTH, offset + length - CommonHeader.CHECKSUM_LENGTH);
        int timeBase = c.i32();
        int numPmu = c.u16();
        if (TimeBase.subdivision(timeBase) == 0 || !c.has((long) numPmu * FIXED_PER_PMU + 2)) {
            return Decoded.rejected(FrameReject.MALFORMED_BODY);
        }
        List<PmuConfig> pmus = new ArrayList<>(numPmu);
        long dataSize = CommonHeader.MIN_FRAME_SIZE;
        for (int p = 0; p < numPmu; p++) {
            ChannelName station = ChannelName.ofBytes(c.bytes(ChannelName.FIXED_LENGTH));
            int idCode = c.u16();
            DataFormat format = new DataFormat(c.u16());
            int phnmr = c.u16();
            int annmr = c.u16();
            int dgnmr = c.u16();
            long names = (long) phnmr + annmr + 16L * dgnmr;
            if (!c.has(names * ChannelName.FIXED_LENGTH + 4L * (phnmr + annmr + dgnmr) + 4)) {
                return Decoded.rejected(FrameReject.MALFORMED_BODY);
            }
            List<ChannelName> phasorNames = names(c, phnmr);
            List<ChannelName> analogNames = names(c, annmr);
            List<ChannelName> digitalNames = names(c, 16 * dgnmr);
            List<PhasorUnit> phasorUnits = new ArrayList<>(phnmr);
            for (int i = 0; i < phnmr; i++) {
                phasorUnits.add(new PhasorUnit(c.i32()));
            }
            List<AnalogUnit> analogUnits = new ArrayList<>(annmr);
            for (int i = 0; i < annmr; i++) {
                analogUnits.add(new AnalogUnit(c.i32()));
            }
            List<DigitalUnit> digitalUnits = new ArrayList<>(dgnmr);
            for (int i = 0; i < dgnmr; i++) {
                digitalUnits.add(DigitalUnit.ofRaw(c.i32()));
            }
            NominalFrequency nominal = new NominalFrequency(c.u16());
            int configCount = c.u16();
            pmus.add(new PmuConfig(station, idCode, format, phasorNames, analogNames, digitalNames,
                    phasorUnits, analogUnits, digitalUnits, nominal, configCount));
            dataSize += format.pmuDataSize(phnmr, annmr, dgnmr);
        }
        int dataRate = (short) c.u16();
        if (!c.exhausted() || dataSize > CommonHeader.MAX_FRAME_SIZE) {
            return Decoded.rejected(FrameReject.MALFORMED_BODY);
        }
        return Decoded.of(new ConfigFrame(type, CommonHeader.version(b, offset), CommonHeader.idCode(b, offset),
                CommonHeader.soc(b, offset), CommonHeader.fracSec(b, offset), timeBase, pmus, dataRate));
    }

    private static List<ChannelName> names(BodyCursor c, int count) {
        List<ChannelName> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(ChannelName.ofBytes(c.bytes(ChannelName.FIXED_LENGTH)));
        }
        return out;
    }

    /** The encoded size; above 65,535 the frame cannot be sent. */
    public static long encodedSize(ConfigFrame f) {
        long size = CommonHeader.LENGTH + 4 + 2 + 2 + CommonHeader.CHECKSUM_LENGTH;
        for (PmuConfig p : f.pmus()) {
            size += FIXED_PER_PMU
                    + (long) ChannelName.FIXED_LENGTH * (p.phasorNames().size() + p.analogNames().size() + p.digitalNames().size())
                    + 4L * (p.phasorCount() + p.analogCount() + p.digitalCount());
        }
        return size;
    }

    public static byte[] encode(ConfigFrame f) {
        long size = encodedSize(f);
        if (size > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("configuration frame of " + size + " bytes exceeds FRAMESIZE");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size);
        CommonHeader.write(b, 0, f.type(), f.version(), (int) size, f.idCode(), f.soc(), f.fracSec());
        b.position(CommonHeader.LENGTH);
        b.putInt(f.timeBase()).putShort((short) f.pmus().size());
        for (PmuConfig p : f.pmus()) {
            b.put(p.station().bytes()).putShort((short) p.idCode()).putShort((short) p.format().raw())
                    .putShort((short) p.phasorCount()).putShort((short) p.analogCount()).putShort((short) p.digitalCount());
            p.phasorNames().forEach(n -> b.put(n.bytes()));
            p.analogNames().forEach(n -> b.put(n.bytes()));
            p.digitalNames().forEach(n -> b.put(n.bytes()));
            p.phasorUnits().forEach(u -> b.putInt(u.raw()));
            p.analogUnits().forEach(u -> b.putInt(u.raw()));
            p.digitalUnits().forEach(u -> b.putInt(u.raw()));
            b.putShort((short) p.nominal().raw()).putShort((short) p.configCount());
        }
        b.putShort((short) f.dataRate());
        CommonHeader.seal(b, 0, (int) size);
        return b.array();
    }

}
