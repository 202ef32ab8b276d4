package org.gridstat.rpc.call;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Ratatoskr messages' bytes: round trips, and every malformation named. */
class RpcCodecTest {
    private static final RpcMessage.Request REQUEST = new RpcMessage.Request(7, 42, 1_000_000_000L, 3, "operator1",
            "tap.raise", List.of(5L, 0.25, true, "from console"));

    @Test
    void everyMessageRoundTrips() {
        RpcMessage.Reply reply = new RpcMessage.Reply(7, 42, ReplyCode.EXECUTED, 3.5, "", 100_000_000L);
        RpcMessage.Post post = new RpcMessage.Post(7, 42, false, "sub1/tap/position == 6 is false: the value is 5");
        for (RpcMessage m : List.of(REQUEST, reply, post,
                new RpcMessage.Reply(7, 43, ReplyCode.LATE, null, "late", -1))) {
            byte[] bytes = RpcCodec.encode(m);
            RpcCodec.Decoded d = RpcCodec.decode(bytes, 0, bytes.length);
            assertTrue(d.ok(), d.error());
            assertEquals(m, d.message());
        }
    }

    @Test
    void everyMessageThatEncodesFitsOneStatusEventWithItsFrameHeader() {
        assertEquals(org.gridstat.core.wire.WireFormat.MAX_PAYLOAD_LENGTH - org.gridstat.rpc.transport.TransportFrame.HEADER_LENGTH,
                RpcCodec.MAX_MESSAGE_BYTES);
        int largest = 0;
        // requests of every length from 1,346 to 1,446 bytes: 5 texts of 256 bytes and one of 0..100
        String full = "x".repeat(RpcCodec.MAX_TEXT_BYTES);
        for (int n = 0; n <= 100; n++) {
            List<Object> args = List.of(full, full, full, full, full, "x".repeat(n));
            try {
                byte[] b = RpcCodec.encode(new RpcMessage.Request(7, 42, 1, 3, "operator1", "tap.raise", args));
                largest = Math.max(largest, b.length);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
            }
        }
        assertEquals(RpcCodec.MAX_MESSAGE_BYTES, largest, "the longest request that encodes is the longest a frame carries");
    }

    @Test
    void theRequestsBytesAreAsDocumented() {
        byte[] b = RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 4, "c", "op", List.of(9L)));
        assertArrayEquals(new byte[] {1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 4,
                1, 'c', 2, 'o', 'p', 1, 1, 0, 0, 0, 0, 0, 0, 0, 9}, b);
    }

    @Test
    void malformationsAreNamedAndTheIdsKeptWhenReadable() {
        byte[] good = RpcCodec.encode(REQUEST);
        assertEquals("truncated", decode(java.util.Arrays.copyOf(good, good.length - 1)).error());
        assertTrue(decode(java.util.Arrays.copyOf(good, good.length + 2)).error().contains("2 bytes after"));
        byte[] type = good.clone();
        type[0] = 9;
        assertTrue(decode(type).error().contains("unknown message type 9"));
        assertFalse(decode(type).idsKnown());
        byte[] version = good.clone();
        version[1] = 2;
        RpcCodec.Decoded v = decode(version);
        assertTrue(v.error().contains("version 2"));
        assertTrue(v.idsKnown());
        assertEquals(42, v.requestId());
        byte[] utf8 = good.clone();
        utf8[28] = (byte) 0xFF; // inside the caller
        assertEquals("caller is not UTF-8", decode(utf8).error());
        byte[] name = RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 0, "c", "op", List.of()));
        name[30] = ' ';
        assertTrue(decode(name).error().contains("operation name"));
        byte[] bool = RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 0, "c", "op", List.of(true)));
        bool[bool.length - 1] = 2;
        assertEquals("a boolean is 0 or 1, got 2", decode(bool).error());
        assertEquals(0, decode(new byte[5]).type());
    }

    @Test
    void whatCannotBeEncodedIsRefusedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 0, "c", "bad name",
                List.of())));
        assertThrows(IllegalArgumentException.class, () -> RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 0, "", "op",
                List.of())));
        assertThrows(IllegalArgumentException.class, () -> RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 0, "c", "op",
                List.of(new Object()))));
        assertThrows(IllegalArgumentException.class, () -> RpcCodec.encode(new RpcMessage.Request(1, 2, 3, 0, "c", "op",
                java.util.Collections.nCopies(17, 1L))));
        String longDetail = "x".repeat(2000);
        byte[] clipped = RpcCodec.encode(new RpcMessage.Post(1, 2, false, longDetail));
        assertTrue(decode(clipped).ok(), "a long detail is cut, not refused");
    }

    private static RpcCodec.Decoded decode(byte[] b) {
        return RpcCodec.decode(b, 0, b.length);
    }

    @Test
    void noMessageLongerThanAFrameCarriesIsEncodedOrDecoded() {
        int max = org.gridstat.rpc.transport.TransportFrame.MAX_PAYLOAD;
        // 43 bytes before the arguments, five texts of 256 bytes (259 each) and one of n bytes (3 + n)
        java.util.function.IntFunction<List<Object>> args = n -> {
            List<Object> a = new java.util.ArrayList<>(java.util.Collections.nCopies(5, "z".repeat(256)));
            a.add("z".repeat(n));
            return a;
        };
        int fits = max - 43 - 5 * 259 - 3;
        byte[] largest = RpcCodec.encode(new RpcMessage.Request(7, 42, 1, 0, "operator1", "open", args.apply(fits)));
        assertEquals(max, largest.length);
        assertTrue(decode(largest).ok());
        assertThrows(IllegalArgumentException.class, () -> RpcCodec.encode(new RpcMessage.Request(7, 42, 1, 0, "operator1",
                "open", args.apply(fits + 1))));
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(max + 1).put(largest, 0, largest.length - fits - 2);
        b.putShort((short) (fits + 1)).put("z".repeat(fits + 1).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        RpcCodec.Decoded tooLong = decode(b.array());
        assertFalse(tooLong.ok());
        assertTrue(tooLong.error().contains("longer than one frame"), tooLong.error());
    }
}
