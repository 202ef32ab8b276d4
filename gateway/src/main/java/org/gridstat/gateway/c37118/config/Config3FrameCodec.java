package org.gridstat.gateway.c37118.config;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.gridstat.gateway.c37118.frame.BodyCursor;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * Configuration frame 3. After the common header: CONT_IDX (2), then the configuration body:
 * TIME_BASE (4), NUM_PMU (2); per PMU STN (1-byte length + UTF-8), IDCODE (2), G_PMU_ID (16),
 * FORMAT (2), PHNMR, ANNMR, DGNMR (2 each), CHNAM (a length-prefixed name per phasor, per analog
 * and 16 per digital word), PHSCALE (12 per phasor), ANSCALE (8 per analog), DIGUNIT (4 per
 * digital word), PMU_LAT, PMU_LON, PMU_ELEV (float each), SVC_CLASS (1), WINDOW (4), GRP_DLY (4),
 * FNOM (2), CFGCNT (2); then DATA_RATE (2) and CHK. A configuration too large for one frame is
 * split: the body continues in the next frame after its own header and CONT_IDX.
 *
 * <p>Independent readings differ on the digital names: the Kaitai description in
 * sonusz/PhasorToolBox and the standard's CHNAM text give 16 names per digital word, as in
 * CFG-1/2; the ICSNPP Zeek parser (cisagov/icsnpp-synchrophasor) reads one name per word. This
 * codec follows the standard's text. Not thread safe (one cursor).
 */
public final class Config3FrameCodec {
    /** CONT_IDX of a configuration sent whole in one frame. */
    public static final int WHOLE = 0;
    public static final int FIRST_FRAGMENT = 1;
    public static final int LAST_FRAGMENT = 0xFFFF;

    private static final int MIN_PER_PMU = 1 + 2 + 16 + 2 + 6 + 12 + 1 + 8 + 4;

    private final BodyCursor cursor = new BodyCursor();

    /** Decodes a configuration sent whole (CONT_IDX 0); a fragment goes to {@link Config3Assembler}. */
    public Decoded<Config3Frame> decode(ByteBuffer b, int offset, int length) {
        FrameReject reject = checkFrame(b, offset, length);
        if (reject != FrameReject.NONE) {
            return Decoded.rejected(reject);
        }
        if (continuationIndex(b, offset) != WHOLE) {
            return Decoded.rejected(FrameReject.CONTINUATION_OUT_OF_ORDER);
        }
        return decodeBody(b, offset + CommonHeader.LENGTH + 2, offset + length - CommonHeader.CHECKSUM_LENGTH,
                CommonHeader.version(b, offset), CommonHeader.idCode(b, offset), CommonHeader.soc(b, offset),
                CommonHeader.fracSec(b, offset));
    }

    /** Validates a CFG-3 frame: header, CRC, type, and room for CONT_IDX. */
    static FrameReject checkFrame(ByteBuffer b, int offset, int length) {
        FrameReject reject = CommonHeader.check(b, offset, length);
        if (reject != FrameReject.NONE) {
            return reject;
        }
        if (CommonHeader.type(b, offset) != FrameType.CONFIG_3) {
            return FrameReject.WRONG_FRAME_TYPE;
        }
        return length < CommonHeader.MIN_FRAME_SIZE + 2 ? FrameReject.MALFORMED_BODY : FrameReject.NONE;
    }

    static int continuationIndex(ByteBuffer b, int offset) {
        return Bytes.u16(b, offset + CommonHeader.LENGTH);
    }

    /** Decodes a configuration body lying in {@code [position, limit)}. */
    Decoded<Config3Frame> decodeBody(ByteBuffer b, int position, int limit, int version, int idCode, long soc, int fracSec) {
        BodyCursor c = cursor.wrap(b, position, limit);
        int timeBase = c.i32();
        int numPmu = c.u16();
        if (TimeBase.subdivision(timeBase) == 0 || !c.has((long) numPmu * MIN_PER_PMU + 2)) {
            return Decoded.rejected(FrameReject.MALFORMED_BODY);
        }
        List<Pmu3Config> pmus = new ArrayList<>(numPmu);
        long dataSize = CommonHeader.MIN_FRAME_SIZE;
        for (int p = 0; p < numPmu; p++) {
            ChannelName station = name(c);
            int pmuIdCode = c.u16();
            UUID globalId = new UUID(c.i64(), c.i64());
            DataFormat format = new DataFormat(c.u16());
            int phnmr = c.u16();
            int annmr = c.u16();
            int dgnmr = c.u16();
            long names = (long) phnmr + annmr + 16L * dgnmr;
            if (!c.has(names + 12L * phnmr + 8L * annmr + 4L * dgnmr + 25)) {
                return Decoded.rejected(FrameReject.MALFORMED_BODY);
            }
            List<ChannelName> phasorNames = names(c, phnmr);
            List<ChannelName> analogNames = names(c, annmr);
            List<ChannelName> digitalNames = names(c, 16 * dgnmr);
            if (!c.has(12L * phnmr + 8L * annmr + 4L * dgnmr + 25)) {
                return Decoded.rejected(FrameReject.MALFORMED_BODY);
            }
            List<PhasorScale> phasorScales = new ArrayList<>(phnmr);
            for (int i = 0; i < phnmr; i++) {
                int flags = c.u16();
                int type = c.u8();
                int user = c.u8();
                phasorScales.add(new PhasorScale(flags, type, user, c.i32(), c.i32()));
            }
            List<AnalogScale> analogScales = new ArrayList<>(annmr);
            for (int i = 0; i < annmr; i++) {
                analogScales.add(new AnalogScale(c.i32(), c.i32()));
            }
            List<DigitalUnit> digitalUnits = new ArrayList<>(dgnmr);
            for (int i = 0; i < dgnmr; i++) {
                digitalUnits.add(DigitalUnit.ofRaw(c.i32()));
            }
            int lat = c.i32();
            int lon = c.i32();
            int elev = c.i32();
            int serviceClass = c.u8();
            int window = c.i32();
            int groupDelay = c.i32();
            NominalFrequency nominal = new NominalFrequency(c.u16());
            int configCount = c.u16();
            if (c.overrun()) {
                return Decoded.rejected(FrameReject.MALFORMED_BODY);
            }
            pmus.add(new Pmu3Config(station, pmuIdCode, globalId, format, phasorNames, analogNames, digitalNames,
                    phasorScales, analogScales, digitalUnits, lat, lon, elev, serviceClass, window, groupDelay,
                    nominal, configCount));
            dataSize += format.pmuDataSize(phnmr, annmr, dgnmr);
        }
        int dataRate = (short) c.u16();
        if (!c.exhausted() || dataSize > CommonHeader.MAX_FRAME_SIZE) {
            return Decoded.rejected(FrameReject.MALFORMED_BODY);
        }
        return Decoded.of(new Config3Frame(version, idCode, soc, fracSec, timeBase, pmus, dataRate));
    }

    private static ChannelName name(BodyCursor c) {
        return ChannelName.ofBytes(c.bytes(c.u8()));
    }

    private static List<ChannelName> names(BodyCursor c, int count) {
        List<ChannelName> out = new ArrayList<>(Math.min(count, c.remaining()));
        for (int i = 0; i < count && !c.overrun(); i++) {
            out.add(name(c));
        }
        return out;
    }

    /** The configuration body: everything between CONT_IDX and CHK when sent whole. */
    public static byte[] encodeBody(Config3Frame f) {
        long size = 4 + 2 + 2;
        for (Pmu3Config p : f.pmus()) {
            size += MIN_PER_PMU + p.station().length() + 12L * p.phasorCount() + 8L * p.analogCount()
                    + 4L * p.digitalCount();
            for (List<ChannelName> list : List.of(p.phasorNames(), p.analogNames(), p.digitalNames())) {
                for (ChannelName n : list) {
                    size += 1 + n.length();
                }
            }
        }
        if (size > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("configuration too large");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size);
        b.putInt(f.timeBase()).putShort((short) f.pmus().size());
        for (Pmu3Config p : f.pmus()) {
            putName(b, p.station());
            b.putShort((short) p.idCode())
                    .putLong(p.globalId().getMostSignificantBits()).putLong(p.globalId().getLeastSignificantBits())
                    .putShort((short) p.format().raw())
                    .putShort((short) p.phasorCount()).putShort((short) p.analogCount()).putShort((short) p.digitalCount());
            p.phasorNames().forEach(n -> putName(b, n));
            p.analogNames().forEach(n -> putName(b, n));
            p.digitalNames().forEach(n -> putName(b, n));
            p.phasorScales().forEach(s -> b.putShort((short) s.flags()).put((byte) s.phasorType()).put((byte) s.userByte())
                    .putInt(s.scaleBits()).putInt(s.angleBits()));
            p.analogScales().forEach(s -> b.putInt(s.scaleBits()).putInt(s.offsetBits()));
            p.digitalUnits().forEach(u -> b.putInt(u.raw()));
            b.putInt(p.latitudeBits()).putInt(p.longitudeBits()).putInt(p.elevationBits()).put((byte) p.serviceClass())
                    .putInt(p.window()).putInt(p.groupDelay())
                    .putShort((short) p.nominal().raw()).putShort((short) p.configCount());
        }
        b.putShort((short) f.dataRate());
        if (b.hasRemaining()) {
            throw new IllegalStateException("CFG-3 size computed wrong: " + b.remaining() + " bytes left");
        }
        return b.array();
    }

    private static void putName(ByteBuffer b, ChannelName n) {
        b.put((byte) n.length()).put(n.bytes());
    }

    /** Encodes the configuration whole, in one frame with CONT_IDX 0. */
    public static byte[] encode(Config3Frame f) {
        byte[] body = encodeBody(f);
        int size = CommonHeader.MIN_FRAME_SIZE + 2 + body.length;
        if (size > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("CFG-3 of " + size + " bytes needs fragments: use encodeFragments");
        }
        return frame(f, WHOLE, body, 0, body.length);
    }

    /**
     * Encodes the configuration in frames of at most {@code maxFrameSize} bytes: one frame with
     * CONT_IDX 0 if it fits, else CONT_IDX 1, 2, ... and 0xFFFF on the last.
     */
    public static List<byte[]> encodeFragments(Config3Frame f, int maxFrameSize) {
        byte[] body = encodeBody(f);
        int room = Math.min(maxFrameSize, CommonHeader.MAX_FRAME_SIZE) - CommonHeader.MIN_FRAME_SIZE - 2;
        if (room < 1) {
            throw new IllegalArgumentException("no room for a body in frames of " + maxFrameSize + " bytes");
        }
        if (body.length <= room) {
            return List.of(frame(f, WHOLE, body, 0, body.length));
        }
        int fragments = (body.length + room - 1) / room;
        if (fragments > 0xFFFE) {
            throw new IllegalArgumentException("CFG-3 needs more fragments than CONT_IDX can number");
        }
        List<byte[]> out = new ArrayList<>(fragments);
        for (int i = 0; i < fragments; i++) {
            int from = i * room;
            int index = i == fragments - 1 ? LAST_FRAGMENT : i + 1;
            out.add(frame(f, index, body, from, Math.min(room, body.length - from)));
        }
        return out;
    }

    private static byte[] frame(Config3Frame f, int continuationIndex, byte[] body, int from, int length) {
        int size = CommonHeader.MIN_FRAME_SIZE + 2 + length;
        ByteBuffer b = ByteBuffer.allocate(size);
        CommonHeader.write(b, 0, FrameType.CONFIG_3, f.version(), size, f.idCode(), f.soc(), f.fracSec());
        b.position(CommonHeader.LENGTH);
        b.putShort((short) continuationIndex).put(body, from, length);
        CommonHeader.seal(b, 0, size);
        return b.array();
    }
}
