package org.gridstat.gateway.mapping;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * The payload of a PMU's description variable. A description is a whole CFG-2 frame with that one
 * PMU (the stream's TIME_BASE and DATA_RATE, IDCODE the PMU's), so the CFG-2 decoder reads it; it
 * may not fit one payload, so it is cut into parts, each a payload. Big-endian:
 *
 * <pre>
 *  0  1  kind = 2
 *  1  1  part index, 0 .. n-1
 *  2  1  part count n, 1 .. 255
 *  3  1  0, reserved (ignored when read)
 *  4  2  CFGCNT
 *  6  4  CRC-32 of the whole CFG-2: names the description the part belongs to
 * 10  .. the part's bytes; every part but the last fills the payload
 * </pre>
 *
 * Descriptions change rarely and are small, so this class allocates freely.
 */
public final class PmuDescription {
    public static final int KIND = 2;
    public static final int HEADER_LENGTH = 10;
    public static final int MAX_PARTS = 255;

    static final int INDEX_OFFSET = 1;
    static final int COUNT_OFFSET = 2;
    static final int CFGCNT_OFFSET = 4;
    static final int CRC_OFFSET = 6;

    private PmuDescription() {
    }

    /**
     * The one-PMU CFG-2 of {@code pmu} in a stream's CFG-1 or CFG-2 (a PDC's holds many PMUs):
     * its TIME_BASE, DATA_RATE, version, SOC and FRACSEC, the PMU's IDCODE.
     */
    public static ConfigFrame forPmu(ConfigFrame stream, int pmu) {
        PmuConfig p = stream.pmus().get(pmu);
        return new ConfigFrame(FrameType.CONFIG_2, stream.version(), p.idCode(), stream.soc(), stream.fracSec(),
                stream.timeBase(), List.of(p), stream.dataRate());
    }

    /**
     * The CFG-2 of an output stream whose PMUs are the descriptions' in this order: what an egress
     * serves downstream. SOC and FRACSEC are 0, for the sender to set.
     */
    public static ConfigFrame join(int version, int idCode, int timeBase, int dataRate, List<ConfigFrame> descriptions) {
        List<PmuConfig> pmus = new ArrayList<>(descriptions.size());
        for (ConfigFrame d : descriptions) {
            pmus.addAll(d.pmus());
        }
        return new ConfigFrame(FrameType.CONFIG_2, version, idCode, 0, 0, timeBase, pmus, dataRate);
    }

    /** CRC-32 of a description's bytes: the name its parts carry. */
    public static int crc(byte[] cfg2, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(cfg2, offset, length);
        return (int) crc.getValue();
    }

    /**
     * Cuts a one-PMU CFG-2 into payloads of at most {@code maxPayload} bytes.
     *
     * @throws IllegalArgumentException if the frame is not a CFG-2 of one PMU, {@code maxPayload}
     *         leaves no room for data or exceeds a status-event payload, or the description needs
     *         more than 255 parts
     */
    public static List<byte[]> parts(ConfigFrame onePmuCfg2, int maxPayload) {
        if (onePmuCfg2.type() != FrameType.CONFIG_2 || onePmuCfg2.pmus().size() != 1) {
            throw new IllegalArgumentException("a description is a CFG-2 of exactly one PMU, not a "
                    + onePmuCfg2.type() + " of " + onePmuCfg2.pmus().size());
        }
        if (maxPayload <= HEADER_LENGTH || maxPayload > PmuSample.MAX_LENGTH) {
            throw new IllegalArgumentException("a description part's payload is " + (HEADER_LENGTH + 1) + " to "
                    + PmuSample.MAX_LENGTH + " bytes, not " + maxPayload);
        }
        byte[] cfg2 = ConfigFrameCodec.encode(onePmuCfg2);
        int room = maxPayload - HEADER_LENGTH;
        int count = (cfg2.length + room - 1) / room;
        if (count > MAX_PARTS) {
            throw new IllegalArgumentException("PMU " + onePmuCfg2.idCode() + "'s description of " + cfg2.length
                    + " bytes needs " + count + " parts of " + maxPayload + " bytes; at most " + MAX_PARTS + " are numbered");
        }
        int crc = crc(cfg2, 0, cfg2.length);
        int configCount = onePmuCfg2.pmus().get(0).configCount();
        List<byte[]> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int from = i * room;
            int n = Math.min(room, cfg2.length - from);
            byte[] part = new byte[HEADER_LENGTH + n];
            ByteBuffer b = ByteBuffer.wrap(part);
            Bytes.put8(b, 0, KIND);
            Bytes.put8(b, INDEX_OFFSET, i);
            Bytes.put8(b, COUNT_OFFSET, count);
            Bytes.put16(b, CFGCNT_OFFSET, configCount);
            Bytes.put32(b, CRC_OFFSET, crc);
            System.arraycopy(cfg2, from, part, HEADER_LENGTH, n);
            parts.add(part);
        }
        return parts;
    }
}
