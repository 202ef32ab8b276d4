package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.gridstat.core.forward.StaticForwardingTable;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.Test;

class ForwardingHandlerTest {
    private static final InetSocketAddress SENDER = new InetSocketAddress("127.0.0.1", 20001);
    private static final InetSocketAddress A = new InetSocketAddress("127.0.0.1", 21001);
    private static final InetSocketAddress B = new InetSocketAddress("127.0.0.1", 21002);

    private final StaticForwardingTable table = StaticForwardingTable.parse(List.of(
            "1 -> 127.0.0.1:21001, 127.0.0.1:21002",
            "2 -> 127.0.0.1:21002"));
    private final DataPathCounters counters = new DataPathCounters();
    private final EmbeddedChannel channel = new EmbeddedChannel(
            new ForwardingHandler(table, new InetSocketAddress[] {A, B}, counters));

    private static ByteBuf frame(long variable, long seq, int hops) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(2048);
        ByteBuffer nio = buf.internalNioBuffer(0, 2048);
        int len = new StatusEventEncoder().wrap(nio, nio.position()).variableId(variable).sequence(seq)
                .sourceTimeNanos(seq * 1000).serviceClass(ServiceClass.HRT).hopCount(hops).doublePayload(seq / 2.0).seal();
        return buf.writerIndex(len);
    }

    private DatagramPacket readOutbound() {
        return channel.readOutbound();
    }

    @Test
    void sendsOneCopyPerOutLinkWithTheHopCountStamped() {
        channel.writeInbound(new DatagramPacket(frame(1, 7, 2), null, SENDER));
        channel.writeInbound(new DatagramPacket(frame(2, 8, 0), null, SENDER));

        StatusEventDecoder d = new StatusEventDecoder();
        DatagramPacket first = readOutbound();
        DatagramPacket second = readOutbound();
        DatagramPacket third = readOutbound();
        assertNull(readOutbound());
        assertEquals(A, first.recipient());
        assertEquals(B, second.recipient());
        assertEquals(B, third.recipient());
        for (DatagramPacket p : List.of(first, second)) {
            ByteBuf c = p.content();
            assertEquals(RejectReason.NONE, d.wrap(c.nioBuffer(), 0, c.readableBytes()));
            assertEquals(1, d.variableId());
            assertEquals(7, d.sequence());
            assertEquals(7000, d.sourceTimeNanos());
            assertEquals(3, d.hopCount());
            assertEquals(3.5, d.doubleValue());
        }
        ByteBuf c = third.content();
        assertEquals(RejectReason.NONE, d.wrap(c.nioBuffer(), 0, c.readableBytes()));
        assertEquals(2, d.variableId());
        assertEquals(1, d.hopCount());
        first.release();
        second.release();
        third.release();

        RouterCounters snap = DataPathCounters.snapshot(List.of(counters));
        assertEquals(2, snap.received());
        assertEquals(3, snap.forwarded());
        assertEquals(0, snap.droppedTotal());
    }

    @Test
    void countsEachKindOfBadInputAndKeepsTheChannelOpen() {
        channel.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[5]), null, SENDER));
        channel.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[1500]), null, SENDER));
        channel.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[100]), null, SENDER));
        ByteBuf corrupt = frame(1, 1, 0);
        corrupt.setByte(50, corrupt.getByte(50) ^ 1);
        channel.writeInbound(new DatagramPacket(corrupt, null, SENDER));
        channel.writeInbound(new DatagramPacket(frame(99, 1, 0), null, SENDER));
        channel.writeInbound(new DatagramPacket(frame(1, 2, WireFormat.MAX_HOP_COUNT), null, SENDER));
        channel.writeInbound(new DatagramPacket(frame(2, 3, 0), null, SENDER));

        assertTrue(channel.isOpen());
        DatagramPacket only = readOutbound();
        assertNotNull(only);
        assertNull(readOutbound());
        only.release();
        channel.checkException();

        RouterCounters snap = DataPathCounters.snapshot(List.of(counters));
        assertEquals(7, snap.received());
        assertEquals(1, snap.forwarded());
        assertEquals(1, snap.dropped(RejectReason.TRUNCATED));
        assertEquals(1, snap.dropped(RejectReason.OVERSIZE));
        assertEquals(1, snap.dropped(RejectReason.BAD_MAGIC));
        assertEquals(1, snap.dropped(RejectReason.CHECKSUM_MISMATCH));
        assertEquals(1, snap.dropped(RejectReason.UNKNOWN_VARIABLE));
        assertEquals(1, snap.dropped(RejectReason.HOP_LIMIT));
        assertEquals(6, snap.droppedTotal());
    }

    @Test
    void releasesEveryBufferWhateverHappens() {
        ByteBuf good = frame(1, 1, 0);
        ByteBuf unknown = frame(42, 1, 0);
        ByteBuf garbage = Unpooled.directBuffer(64).writeZero(64);
        channel.writeInbound(new DatagramPacket(good, null, SENDER));
        channel.writeInbound(new DatagramPacket(unknown, null, SENDER));
        channel.writeInbound(new DatagramPacket(garbage, null, SENDER));
        assertEquals(0, unknown.refCnt());
        assertEquals(0, garbage.refCnt());
        assertEquals(2, good.refCnt(), "two copies in flight share the received buffer");
        DatagramPacket a = readOutbound();
        DatagramPacket b = readOutbound();
        a.release();
        b.release();
        assertEquals(0, good.refCnt());
    }
}
