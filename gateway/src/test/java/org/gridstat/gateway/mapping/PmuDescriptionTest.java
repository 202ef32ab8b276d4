package org.gridstat.gateway.mapping;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.Test;

class PmuDescriptionTest {
    private static final int PAYLOAD = PmuSample.MAX_LENGTH;

    private static ConfigFrame annex(String hex) {
        byte[] f = AnnexFrames.bytes(hex);
        return new ConfigFrameCodec().decode(ByteBuffer.wrap(f), 0, f.length).frame();
    }

    /** 40 phasors, 4 analogs, 16 digital words: 5,000-odd bytes of CFG-2, four parts. */
    static ConfigFrame large(int idCode, int configCount) {
        PmuConfig p = SampleConfigs.pmu(idCode, DataFormat.of(true, true, false, true), 40, 4, 16, NominalFrequency.HZ_50);
        p = new PmuConfig(p.station(), p.idCode(), p.format(), p.phasorNames(), p.analogNames(), p.digitalNames(),
                p.phasorUnits(), p.analogUnits(), p.digitalUnits(), p.nominal(), configCount);
        return new ConfigFrame(FrameType.CONFIG_2, 2, idCode, SampleConfigs.SOC, 0, 1_000_000, List.of(p), 60);
    }

    /** Parts of any bytes, named by any CRC: how a forger or a broken sender would cut them. */
    static List<byte[]> cut(byte[] bytes, int count, int configCount, int crc, int room) {
        List<byte[]> parts = new ArrayList<>();
        for (int i = 0; i * room < bytes.length; i++) {
            int n = Math.min(room, bytes.length - i * room);
            byte[] part = new byte[10 + n];
            ByteBuffer.wrap(part).put(0, (byte) 2).put(1, (byte) i).put(2, (byte) count).putShort(4, (short) configCount).putInt(6, crc);
            System.arraycopy(bytes, i * room, part, 10, n);
            parts.add(part);
        }
        return parts;
    }

    @Test
    void aPdcConfigurationIsCutIntoOneDescriptionPerPmuAndJoinedAgain() {
        ConfigFrame pdc = annex(AnnexFrames.CONFIG_2_TWO_PMUS);
        ConfigFrame first = PmuDescription.forPmu(pdc, 0);
        assertEquals(FrameType.CONFIG_2, first.type());
        assertEquals(List.of(pdc.pmus().get(0)), first.pmus());
        assertEquals(pdc.pmus().get(0).idCode(), first.idCode());
        assertEquals(pdc.timeBase(), first.timeBase());
        assertEquals(pdc.dataRate(), first.dataRate());
        assertEquals(pdc.version(), first.version());

        ConfigFrame joined = PmuDescription.join(1, 7734, pdc.timeBase(), pdc.dataRate(),
                List.of(first, PmuDescription.forPmu(pdc, 1)));
        assertEquals(new ConfigFrame(FrameType.CONFIG_2, 1, 7734, 0, 0, pdc.timeBase(), pdc.pmus(), pdc.dataRate()), joined);
        byte[] original = AnnexFrames.bytes(AnnexFrames.CONFIG_2_TWO_PMUS);
        byte[] rejoined = ConfigFrameCodec.encode(new ConfigFrame(FrameType.CONFIG_2, 1, 7734, pdc.soc(), pdc.fracSec(),
                joined.timeBase(), joined.pmus(), joined.dataRate()));
        assertArrayEquals(original, rejoined);
    }

    @Test
    void aSmallDescriptionIsOnePartLaidOutByteByByte() {
        ConfigFrame cfg = annex(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] cfg2 = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        List<byte[]> parts = PmuDescription.parts(cfg, PAYLOAD);
        assertEquals(1, parts.size());
        byte[] p = parts.get(0);
        assertEquals(10 + cfg2.length, p.length);
        ByteBuffer b = ByteBuffer.wrap(p);
        assertEquals(2, b.get(0));
        assertEquals(0, b.get(1));
        assertEquals(1, b.get(2));
        assertEquals(0, b.get(3));
        assertEquals(22, b.getShort(4));
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(cfg2);
        assertEquals((int) crc.getValue(), b.getInt(6));
        assertArrayEquals(cfg2, Arrays.copyOfRange(p, 10, p.length));

        DescriptionAssembler assembler = new DescriptionAssembler();
        assertEquals(PartOutcome.COMPLETE, assembler.accept(p, 0, p.length));
        assertEquals(cfg, assembler.description());
        assertEquals(PartOutcome.REPEAT, assembler.accept(p, 0, p.length));
    }

    @Test
    void aLargeDescriptionIsReassembledShuffledWithDuplicatesAndAnotherDescriptionInterleaved() {
        ConfigFrame cfg = large(40, 8);
        List<byte[]> parts = PmuDescription.parts(cfg, PAYLOAD);
        assertEquals(4, parts.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(PAYLOAD, parts.get(i).length, "every part but the last is full");
        }
        List<byte[]> older = PmuDescription.parts(large(40, 7), 700);
        assertTrue(older.size() > 4);

        List<byte[]> arrivals = new ArrayList<>(parts);
        arrivals.add(parts.get(2));
        arrivals.add(parts.get(0));
        Collections.shuffle(arrivals, new Random(11));
        DescriptionAssembler assembler = new DescriptionAssembler();
        List<PartOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < arrivals.size(); i++) {
            outcomes.add(assembler.accept(arrivals.get(i), 0, arrivals.get(i).length));
            byte[] o = older.get(i);
            assertEquals(PartOutcome.STALE, assembler.accept(o, 0, o.length), "a late part of the description before");
        }
        assertEquals(1, Collections.frequency(outcomes, PartOutcome.COMPLETE));
        assertEquals(cfg, assembler.description());
        assertEquals(3, assembler.count(PartOutcome.STORED));
        assertEquals(2, assembler.count(PartOutcome.DUPLICATE) + assembler.count(PartOutcome.REPEAT));
        assertEquals(arrivals.size(), assembler.count(PartOutcome.STALE));
    }

    @Test
    void aNewerDescriptionReplacesTheOneBeingGathered() {
        List<byte[]> old = PmuDescription.parts(large(40, 8), PAYLOAD);
        ConfigFrame newer = large(40, 9);
        List<byte[]> parts = PmuDescription.parts(newer, PAYLOAD);
        DescriptionAssembler assembler = new DescriptionAssembler();
        assembler.accept(old.get(0), 0, old.get(0).length);
        assembler.accept(old.get(1), 0, old.get(1).length);
        assertEquals(2, assembler.held());
        assertEquals(PartOutcome.STORED, assembler.accept(parts.get(3), 0, parts.get(3).length));
        assertEquals(1, assembler.held(), "the older description's parts are dropped");
        for (byte[] p : old) {
            assertEquals(PartOutcome.STALE, assembler.accept(p, 0, p.length));
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(i < 2 ? PartOutcome.STORED : PartOutcome.COMPLETE, assembler.accept(parts.get(i), 0, parts.get(i).length));
        }
        assertEquals(newer, assembler.description());
    }

    @Test
    void anOlderDescriptionThatKeepsArrivingAloneIsAdoptedAsARestartedSource() {
        DescriptionAssembler assembler = new DescriptionAssembler();
        ConfigFrame before = large(40, 900);
        for (byte[] p : PmuDescription.parts(before, PAYLOAD)) {
            assembler.accept(p, 0, p.length);
        }
        assertEquals(before, assembler.description());
        ConfigFrame restarted = large(40, 0);
        List<byte[]> parts = PmuDescription.parts(restarted, PAYLOAD);
        List<PartOutcome> outcomes = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (byte[] p : parts) {
                outcomes.add(assembler.accept(p, 0, p.length));
            }
        }
        assertEquals(Collections.nCopies(8, PartOutcome.STALE), outcomes.subList(0, 8), "twice its 4 parts refused");
        assertEquals(restarted, assembler.description());
        assertEquals(1, Collections.frequency(outcomes, PartOutcome.COMPLETE));
    }

    @Test
    void aSenderWithSmallerPartsIsAssembled() {
        ConfigFrame cfg = large(41, 3);
        List<byte[]> parts = PmuDescription.parts(cfg, 300);
        Collections.reverse(parts);
        DescriptionAssembler assembler = new DescriptionAssembler();
        for (byte[] p : parts) {
            assembler.accept(p, 0, p.length);
        }
        assertEquals(cfg, assembler.description());
        assertEquals(parts.size() - 1, assembler.count(PartOutcome.STORED));
    }

    @Test
    void forgedAndMalformedPartsAreCountedAndIgnored() {
        ConfigFrame cfg = large(40, 8);
        List<byte[]> parts = PmuDescription.parts(cfg, PAYLOAD);
        DescriptionAssembler assembler = new DescriptionAssembler();
        accept(assembler, parts.get(1), PartOutcome.STORED);

        byte[] forged = parts.get(1).clone();
        forged[500] ^= 1;
        accept(assembler, forged, PartOutcome.CONFLICTING_PART);
        accept(assembler, with(parts.get(0), 2, 5), PartOutcome.INCONSISTENT);
        accept(assembler, with(parts.get(0), 5, 9), PartOutcome.INCONSISTENT);
        accept(assembler, with(with(parts.get(0), 5, 7), 6, 0x55), PartOutcome.STALE);
        accept(assembler, with(parts.get(0), 1, 4), PartOutcome.BAD_INDEX);
        accept(assembler, with(parts.get(0), 2, 0), PartOutcome.BAD_INDEX);
        accept(assembler, Arrays.copyOf(parts.get(0), 9), PartOutcome.TOO_SHORT);
        accept(assembler, Arrays.copyOf(parts.get(0), PAYLOAD + 1), PartOutcome.TOO_LONG);
        accept(assembler, with(parts.get(0), 0, 1), PartOutcome.UNKNOWN_KIND);
        accept(assembler, Arrays.copyOf(parts.get(0), 10), PartOutcome.BAD_PART_LENGTH);
        accept(assembler, Arrays.copyOf(parts.get(0), 500), PartOutcome.BAD_PART_LENGTH);
        accept(assembler, Arrays.copyOf(parts.get(0), PAYLOAD - 1), PartOutcome.BAD_PART_LENGTH);
        accept(assembler, Arrays.copyOf(parts.get(3), 10), PartOutcome.BAD_PART_LENGTH);
        assertEquals(1, assembler.held());

        accept(assembler, parts.get(0), PartOutcome.STORED);
        accept(assembler, parts.get(2), PartOutcome.STORED);
        accept(assembler, parts.get(3), PartOutcome.COMPLETE);
        assertEquals(cfg, assembler.description());
        assertEquals(2, assembler.count(PartOutcome.INCONSISTENT), "count and CFGCNT");
        for (PartOutcome o : List.of(PartOutcome.CONFLICTING_PART, PartOutcome.STALE,
                PartOutcome.TOO_SHORT, PartOutcome.TOO_LONG, PartOutcome.UNKNOWN_KIND)) {
            assertEquals(1, assembler.count(o), o.name());
        }
        assertEquals(2, assembler.count(PartOutcome.BAD_INDEX));
        assertEquals(4, assembler.count(PartOutcome.BAD_PART_LENGTH));
    }

    @Test
    void aForgedPartHeldFirstFailsTheWholeCrcAndTheNextRepetitionIsGatheredAfresh() {
        ConfigFrame cfg = large(40, 8);
        List<byte[]> parts = PmuDescription.parts(cfg, PAYLOAD);
        byte[] forged = parts.get(2).clone();
        forged[100] ^= 0x40;
        DescriptionAssembler assembler = new DescriptionAssembler();
        accept(assembler, forged, PartOutcome.STORED);
        accept(assembler, parts.get(0), PartOutcome.STORED);
        accept(assembler, parts.get(2), PartOutcome.CONFLICTING_PART);
        accept(assembler, parts.get(1), PartOutcome.STORED);
        accept(assembler, parts.get(3), PartOutcome.BAD_CRC);
        assertNull(assembler.description());
        assertEquals(0, assembler.held());
        for (int i = 0; i < 4; i++) {
            accept(assembler, parts.get(i), i < 3 ? PartOutcome.STORED : PartOutcome.COMPLETE);
        }
        assertEquals(cfg, assembler.description());
    }

    @Test
    void bytesWithTheirCrcThatAreNotAOnePmuCfg2AreNotADescription() {
        ConfigFrame pdc = annex(AnnexFrames.CONFIG_2_TWO_PMUS);
        byte[] two = AnnexFrames.bytes(AnnexFrames.CONFIG_2_TWO_PMUS);
        byte[] garbage = new byte[3000];
        new Random(5).nextBytes(garbage);
        byte[] cfg1 = ConfigFrameCodec.encode(new ConfigFrame(FrameType.CONFIG_1, 1, 7734, 0, 0, pdc.timeBase(),
                pdc.pmus().subList(0, 1), 30));
        byte[] otherCount = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        for (byte[] bytes : List.of(two, garbage, cfg1, otherCount)) {
            DescriptionAssembler assembler = new DescriptionAssembler();
            List<byte[]> parts = cut(bytes, (bytes.length + 999) / 1000, 22 + (bytes == otherCount ? 1 : 0),
                    PmuDescription.crc(bytes, 0, bytes.length), 1000);
            PartOutcome last = null;
            for (byte[] p : parts) {
                last = assembler.accept(p, 0, p.length);
            }
            assertEquals(PartOutcome.NOT_A_DESCRIPTION, last);
            assertNull(assembler.description());
        }
    }

    @Test
    void partsRefuseWhatIsNotAOnePmuCfg2AndMoreThan255Parts() {
        ConfigFrame pdc = annex(AnnexFrames.CONFIG_2_TWO_PMUS);
        assertThrows(IllegalArgumentException.class, () -> PmuDescription.parts(pdc, PAYLOAD));
        ConfigFrame one = PmuDescription.forPmu(pdc, 0);
        assertThrows(IllegalArgumentException.class, () -> PmuDescription.parts(
                new ConfigFrame(FrameType.CONFIG_1, 1, 1, 0, 0, 1_000_000, one.pmus(), 30), PAYLOAD));
        assertThrows(IllegalArgumentException.class, () -> PmuDescription.parts(one, 10));
        assertThrows(IllegalArgumentException.class, () -> PmuDescription.parts(one, PAYLOAD + 1));
        // 454 bytes, 2 bytes a part: 227 parts; 1 byte a part: 454
        assertEquals(227, PmuDescription.parts(one, 12).size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PmuDescription.parts(one, 11));
        assertTrue(e.getMessage().contains("454 parts"), e.getMessage());
        assertTrue(e.getMessage().contains("255"), e.getMessage());
    }

    private static void accept(DescriptionAssembler assembler, byte[] part, PartOutcome expected) {
        assertEquals(expected, assembler.accept(part, 0, part.length));
    }

    private static byte[] with(byte[] b, int index, int value) {
        byte[] c = b.clone();
        c[index] = (byte) value;
        return c;
    }
}
