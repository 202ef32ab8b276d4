package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import org.gridstat.htb.U32Match.Key;
import org.junit.jupiter.api.Test;

class U32MatchTest {
    private static final Key IHL_5 = new Key(0, 0x0500_0000, 0x0F00_0000);
    private static final Key UDP = new Key(8, 0x0011_0000, 0x00FF_0000);

    @Test
    void aBareUdpMatchChecksTheHeaderLengthAndProtocol() {
        assertEquals(List.of(IHL_5, UDP), U32Match.udp().build().keys());
    }

    @Test
    void eachFieldIsAKeyAtItsOffset() throws Exception {
        U32Match m = U32Match.udp()
                .destination((Inet4Address) InetAddress.getByName("10.77.0.2"))
                .sourcePort(5_000)
                .destinationPort(4_000)
                .dscp(46)
                .payloadWord(0, 0x4753_4854, 0xFFFF_FFFF)
                .payloadWord(8, 0x0000_0012, 0x0000_00FF)
                .build();
        assertEquals(List.of(
                new Key(0, 0x0500_0000 | 46 << 18, 0x0FFC_0000), // ihl and DSCP share the first word
                UDP,
                new Key(16, 0x0A4D_0002, 0xFFFF_FFFF),
                new Key(20, 5_000 << 16 | 4_000, 0xFFFF_FFFF), // both ports: one word
                new Key(28, 0x4753_4854, 0xFFFF_FFFF),
                new Key(36, 0x0000_0012, 0x0000_00FF)), m.keys());
        assertEquals("match 05b80000/0ffc0000 at 0 match 00110000/00ff0000 at 8 match 0a4d0002/ffffffff at 16"
                + " match 13880fa0/ffffffff at 20 match 47534854/ffffffff at 28 match 00000012/000000ff at 36",
                m.toString());
    }

    @Test
    void theSameMatchTwiceIsOneKeyAndAContradictionIsRefused() {
        assertEquals(U32Match.udp().destinationPort(4_000).build(),
                U32Match.udp().destinationPort(4_000).destinationPort(4_000).build());
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().destinationPort(4_000).destinationPort(4_001));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().payloadWord(0, 1, 0xFF).payloadWord(0, 2, 0xFF));
        assertEquals(List.of(IHL_5, UDP, new Key(28, 0x0102_0000, 0xFFFF_0000)),
                U32Match.udp().payloadWord(0, 0x0100_0000, 0xFF00_0000).payloadWord(0, 0x0002_0000, 0x00FF_0000)
                        .build().keys());
    }

    @Test
    void outOfRangeFieldsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().destinationPort(65_536));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().sourcePort(-1));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().dscp(64));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().payloadWord(2, 1, 0xFF));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().payloadWord(-4, 1, 0xFF));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().payloadWord(0, 0x100, 0xFF));
        assertThrows(IllegalArgumentException.class, () -> U32Match.udp().payloadWord(0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Key(6, 1, 1));
        assertThrows(NullPointerException.class, () -> U32Match.udp().destination(null));
    }

    @Test
    void theKeysCannotBeChanged() {
        U32Match m = U32Match.udp().build();
        assertThrows(UnsupportedOperationException.class, () -> m.keys().clear());
    }
}
