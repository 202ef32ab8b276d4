package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventBuffersTest {
    @Test
    void aReleasedBufferServesTheNextEventOfItsSizeEmptyAndWithOneReference() {
        EventBuffers buffers = new EventBuffers();
        ByteBuf first = buffers.take(260);
        first.writeLong(42);
        first.retain(); // a second out-link's copy
        first.release();
        assertEquals(1, first.refCnt(), "still held by the other copy");
        first.release();
        ByteBuf again = buffers.take(300);
        assertSame(first, again, "the same buffer, kept for the next event");
        assertEquals(1, again.refCnt());
        assertEquals(0, again.readableBytes(), "empty");
        assertNotSame(again, buffers.take(56), "a small event takes a smaller buffer");
        assertEquals(2, buffers.made());
        assertThrows(IllegalArgumentException.class, () -> buffers.take(1473));
    }

    @Test
    void aKeptBufferStaysReleasedSoALateAccessOrASecondReleaseFails() {
        EventBuffers buffers = new EventBuffers();
        ByteBuf b = buffers.take(260);
        b.writeLong(7);
        b.release();
        assertEquals(0, b.refCnt());
        assertThrows(io.netty.util.IllegalReferenceCountException.class, () -> b.getLong(0));
        assertThrows(io.netty.util.IllegalReferenceCountException.class, b::release);
        ByteBuf next = buffers.take(260);
        assertSame(b, next);
        assertNotSame(next, buffers.take(260), "kept once, handed out once");
        buffers.freeAll();
    }

    @Test
    void aBufferReleasedOnAnotherThreadIsFreedNotKept() throws Exception {
        EventBuffers buffers = new EventBuffers();
        ByteBuf b = buffers.take(260);
        Thread other = new Thread(b::release);
        other.start();
        other.join();
        assertEquals(0, b.refCnt(), "freed");
        assertNotSame(b, buffers.take(260), "never handed out again");
    }

    @Test
    void aListKeepsAtMostItsBound() {
        EventBuffers buffers = new EventBuffers();
        List<ByteBuf> held = new ArrayList<>();
        for (int i = 0; i < EventBuffers.KEPT + 10; i++) {
            held.add(buffers.take(100));
        }
        held.forEach(ByteBuf::release);
        for (int i = 0; i < EventBuffers.KEPT; i++) {
            buffers.take(100);
        }
        assertEquals(EventBuffers.KEPT + 10, buffers.made(), "all kept ones reused");
        buffers.take(100);
        assertEquals(EventBuffers.KEPT + 11, buffers.made(), "the ten beyond the bound were freed");
        assertEquals(0, held.get(held.size() - 1).refCnt());
        buffers.freeAll();
    }
}
