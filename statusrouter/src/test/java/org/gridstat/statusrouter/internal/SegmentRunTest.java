package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which datagrams of a flush go as one segmented send: consecutive ones of one length, the last
 * maybe shorter, within the kernel's limits, in order; what the sink gets, byte for byte.
 */
class SegmentRunTest {
    /** What a sink was handed: a lone datagram (segment size 0) or several, with their bytes. */
    private record Sent(int segmentSize, byte[] bytes) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private final List<ByteBuf> made = new ArrayList<>();
    private final SegmentRun.Sink sink = new SegmentRun.Sink() {
        @Override
        public void send(ByteBuf datagram) {
            sent.add(new Sent(0, bytesOf(datagram)));
        }

        @Override
        public void sendSegments(ByteBuf segments, int segmentSize) {
            sent.add(new Sent(segmentSize, bytesOf(segments)));
        }
    };
    private final SegmentRun run = new SegmentRun(PooledByteBufAllocator.DEFAULT);
    private int next;

    @AfterEach
    void everyBufferGivenBack() {
        for (ByteBuf b : made) {
            assertEquals(0, b.refCnt(), "every datagram released");
        }
    }

    private static byte[] bytesOf(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        b.release();
        return out;
    }

    /** A datagram of {@code length} bytes, each byte the datagram's number, as the link adds it to the run. */
    private byte add(int length) {
        byte mark = (byte) ++next;
        if (!run.takes(length)) {
            run.sendTo(sink);
        }
        if (run.isEmpty()) {
            ByteBuf d = PooledByteBufAllocator.DEFAULT.directBuffer(length);
            made.add(d);
            for (int i = 0; i < length; i++) {
                d.writeByte(mark);
            }
            run.start(d);
        } else {
            ByteBuf into = run.extend(length);
            for (int i = 0; i < length; i++) {
                into.writeByte(mark);
            }
        }
        if (run.full()) {
            run.sendTo(sink);
        }
        return mark;
    }

    private static void assertSegments(Sent s, int segmentSize, int... lengths) {
        assertEquals(segmentSize, s.segmentSize());
        int at = 0;
        byte mark = s.bytes()[0];
        for (int length : lengths) {
            for (int i = 0; i < length; i++, at++) {
                assertEquals(mark, s.bytes()[at], "datagram " + mark + " whole and in order");
            }
            mark++;
        }
        assertEquals(at, s.bytes().length);
    }

    @Test
    void equalDatagramsGoTogetherAndAShorterOneEndsTheRun() {
        add(1322);
        add(1322);
        add(1322);
        add(798); // ends the run: sent at once
        assertEquals(1, sent.size());
        assertSegments(sent.get(0), 1322, 1322, 1322, 1322, 798);
        add(1322);
        add(1322);
        run.sendTo(sink); // the flush
        assertEquals(2, sent.size());
        assertSegments(sent.get(1), 1322, 1322, 1322);
        assertTrue(run.isEmpty());
    }

    @Test
    void aLongerDatagramStartsARunOfItsOwnAndALoneOneGoesAsItIs() {
        add(500);
        add(1322); // longer: cannot be a segment of a run of 500
        add(1322);
        add(260);
        add(260); // after a shorter last, the run is over: this one starts anew
        run.sendTo(sink);
        assertEquals(3, sent.size());
        assertSegments(sent.get(0), 0, 500);
        assertSegments(sent.get(1), 1322, 1322, 1322, 260);
        assertSegments(sent.get(2), 0, 260);
    }

    @Test
    void aRunStopsAtTheKernelsSegmentAndByteLimits() {
        for (int i = 0; i < SegmentRun.MAX_SEGMENTS + 1; i++) {
            add(260);
        }
        run.sendTo(sink);
        assertEquals(2, sent.size());
        int[] sixtyFour = new int[SegmentRun.MAX_SEGMENTS];
        java.util.Arrays.fill(sixtyFour, 260);
        assertSegments(sent.get(0), 260, sixtyFour);
        assertSegments(sent.get(1), 0, 260);

        sent.clear();
        int perRun = SegmentRun.MAX_BYTES / 1472; // 44 of 1,472 bytes fit in 65,507
        for (int i = 0; i < perRun + 1; i++) {
            add(1472);
        }
        run.sendTo(sink);
        assertEquals(2, sent.size());
        assertEquals(perRun * 1472, sent.get(0).bytes().length, "as many as fit in one UDP datagram");
        assertSegments(sent.get(1), 0, 1472);

        sent.clear();
        add(40_000);
        add(40_000); // two cannot share a send
        run.sendTo(sink);
        assertEquals(2, sent.size());
        assertEquals(0, sent.get(0).segmentSize());
        assertEquals(0, sent.get(1).segmentSize());
    }

    @Test
    void anEmptyRunSendsNothingAndADiscardedOneGivesItsBuffersBack() {
        run.sendTo(sink);
        assertTrue(sent.isEmpty());
        add(1322);
        add(1322);
        run.discard();
        assertTrue(run.isEmpty());
        run.sendTo(sink);
        assertTrue(sent.isEmpty());
        ByteBuf lone = Unpooled.directBuffer(10).writeZero(10);
        run.start(lone);
        run.discard();
        assertEquals(0, lone.refCnt());
    }
}
