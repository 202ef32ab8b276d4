package org.gridstat.gateway.egress;

import java.nio.ByteBuffer;
import java.util.List;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.mapping.PmuSample;
import org.gridstat.gateway.mapping.PmuSampleView;
import org.gridstat.gateway.mapping.SampleReject;

/**
 * Writes the data frames of an output stream from its PMUs' samples. The stream is described by
 * one CFG-2 whose PMUs are the slots, in order (see {@code PmuDescription.join}); its IDCODE and
 * version head every frame. A present sample's block is copied byte for byte; a slot without a
 * sample, or whose sample's FORMAT, PHNMR, ANNMR or DGNMR differ from the slot's description
 * ({@link SampleReject#SHAPE_MISMATCH}, counted), is written as {@link AbsentData}.
 *
 * <p>Time: SOC and fraction from the {@link TimeKey}; the FRACSEC time-quality byte is the first
 * present sample's, or 0x0F (clock failure: nothing vouches for the time) when none is present.
 * Not thread safe; no allocation per frame.
 */
public final class OutputFrameBuilder {
    /** The time-quality byte of a frame in which no sample is present. */
    public static final int NO_SAMPLE_QUALITY = 0x0F;

    private final DataLayout layout;
    private final int version;
    private final List<PmuConfig> pmus;
    private final int[] blockOffset;
    private final int[] blockLength;
    private final PmuSampleView[] views;
    private final PmuSampleView[] current;
    private final long[] absent;
    private final long[] refused = new long[SampleReject.values().length];

    public OutputFrameBuilder(ConfigFrame output) {
        this.layout = DataLayout.of(output);
        this.version = output.version();
        this.pmus = output.pmus();
        int n = pmus.size();
        blockOffset = new int[n];
        blockLength = new int[n];
        views = new PmuSampleView[n];
        current = new PmuSampleView[n];
        absent = new long[n];
        int at = CommonHeader.LENGTH;
        for (int s = 0; s < n; s++) {
            PmuConfig p = pmus.get(s);
            blockOffset[s] = at;
            blockLength[s] = (int) p.format().pmuDataSize(p.phasorCount(), p.analogCount(), p.digitalCount());
            at += blockLength[s];
            views[s] = new PmuSampleView();
        }
    }

    public int slotCount() {
        return pmus.size();
    }

    public DataLayout layout() {
        return layout;
    }

    /** FRAMESIZE of every frame written. */
    public int frameSize() {
        return layout.frameSize();
    }

    /** Each slot's sample size (header and block): the capacities a {@link FrameAligner} needs. */
    public int[] sampleLengths() {
        int[] lengths = new int[blockLength.length];
        for (int s = 0; s < lengths.length; s++) {
            lengths[s] = PmuSample.HEADER_LENGTH + blockLength[s];
        }
        return lengths;
    }

    /** Whether a sample has its slot's shape: FORMAT and the three counts of the slot's PMU. */
    public boolean fits(int slot, PmuSampleView sample) {
        PmuConfig p = pmus.get(slot);
        return sample.hasShape(p.format().raw(), p.phasorCount(), p.analogCount(), p.digitalCount());
    }

    /**
     * Writes the frame of {@code timeKey} at {@code at} in {@code dst}; {@code samples} holds a
     * wrapped view per slot, or null for an absent slot. Answers the frame's size.
     */
    public int build(long timeKey, PmuSampleView[] samples, ByteBuffer dst, int at) {
        if (samples.length != blockOffset.length) {
            throw new IllegalArgumentException(samples.length + " samples for " + blockOffset.length + " slots");
        }
        if (at < 0 || dst.capacity() - at < layout.frameSize()) {
            throw new IndexOutOfBoundsException("no room for a " + layout.frameSize() + "-byte frame at " + at);
        }
        int quality = -1;
        for (int s = 0; s < samples.length; s++) {
            PmuSampleView v = samples[s];
            if (v != null && !fits(s, v)) {
                refused[SampleReject.SHAPE_MISMATCH.ordinal()]++;
                v = null;
            }
            if (v == null) {
                absent[s]++;
                AbsentData.write(pmus.get(s), dst, at + blockOffset[s]);
            } else {
                v.copyBlockTo(dst, at + blockOffset[s]);
                if (quality < 0) {
                    quality = FracSec.timeQuality(v.fracSec());
                }
            }
        }
        int fracSec = FracSec.of(quality < 0 ? NO_SAMPLE_QUALITY : quality, TimeKey.fraction(timeKey));
        CommonHeader.write(dst, at, FrameType.DATA, version, layout.frameSize(), layout.idCode(), TimeKey.soc(timeKey), fracSec);
        CommonHeader.seal(dst, at, layout.frameSize());
        return layout.frameSize();
    }

    /**
     * Writes a frame the aligner released; a sample that no longer reads as one (counted by its
     * {@link SampleReject}) is absent.
     */
    public int build(AlignedFrame frame, ByteBuffer dst, int at) {
        for (int s = 0; s < views.length; s++) {
            ByteBuffer sample = frame.sample(s);
            current[s] = null;
            if (sample != null) {
                SampleReject r = views[s].wrap(sample, 0, sample.limit());
                if (r == SampleReject.OK) {
                    current[s] = views[s];
                } else {
                    refused[r.ordinal()]++;
                }
            }
        }
        return build(frame.timeKey(), current, dst, at);
    }

    /** Frames written with this slot absent, for want of a sample or for its shape. */
    public long absent(int slot) {
        return absent[slot];
    }

    /** Samples refused for this reason ({@link SampleReject#SHAPE_MISMATCH} and those that did not wrap). */
    public long refused(SampleReject reason) {
        return refused[reason.ordinal()];
    }
}
