package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the kernel's drops at a UDP socket out of /proc/net/udp and udp6. */
class UdpDropsTest {
    @Test
    void kernelDropsAreReadForTheSocketsPort() {
        List<String> table = List.of(
                "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops",
                "  101: 0100007F:4E21 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 123 2 0000000000000000 0",
                "  102: 0100007F:4E22 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 124 2 0000000000000000 1234");
        assertEquals(1234, UdpDrops.parse(table, 0x4E22));
        assertEquals(0, UdpDrops.parse(table, 0x4E21));
        assertEquals(-1, UdpDrops.parse(table, 9999), "no such socket");
        List<String> udp6 = List.of(
                "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops",
                "  889: 0000000000000000FFFF00000100007F:4E23 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1 2 0000000000000000 77");
        assertEquals(77, UdpDrops.parse(udp6, 0x4E23), "an IPv6 socket bound to a mapped IPv4 address");
    }
}
