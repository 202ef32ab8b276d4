package org.gridstat.htb.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridstat.htb.Htb;
import org.gridstat.htb.HtbUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A veth link into a namespace, and code run inside that namespace: its sockets are there, the thread comes back. */
class NetworkNamespaceTest {
    private VethLink link;

    @BeforeAll
    static void kernel() {
        String why = VethLink.whyNot();
        assumeTrue(why == null, () -> "no network namespaces: " + why);
        try (Htb htb = Htb.open()) {
            // the native library (setns) is there
        } catch (HtbUnavailableException e) {
            assumeTrue(false, () -> "no native library: " + e.reason());
        }
    }

    @BeforeEach
    void wire() throws IOException {
        link = VethLink.create("gsh7", "10.77.7.1/24", "10.77.7.2/24");
    }

    @AfterEach
    void unwire() {
        if (link != null) {
            link.close();
        }
    }

    @Test
    void theLinkIsNamedAndAddressedFromItsPrefix() throws Exception {
        assertEquals("gsh7h", link.hostDevice());
        assertEquals("gsh7f", link.farDevice());
        assertEquals("gsh7-far", link.farNamespace());
        assertEquals("10.77.7.1", link.hostAddress().getHostAddress());
        assertEquals("10.77.7.2", link.farAddress().getHostAddress());
        assertTrue(Files.exists(Path.of("/sys/class/net", link.hostDevice())));
        assertTrue(Files.exists(Path.of("/var/run/netns", link.farNamespace())));
        assertTrue(link.farAddress().isReachable(2_000), "the far side answers over the pair");
    }

    @Test
    void aSocketOpenedInsideBelongsToTheNamespace() throws Exception {
        InetSocketAddress far = new InetSocketAddress(link.farAddress(), 0);
        try (DatagramChannel here = DatagramChannel.open()) {
            assertThrows(BindException.class, () -> here.bind(far), "the far address is not here");
        }
        try (DatagramChannel there = NetworkNamespace.call(link.farNamespace(), DatagramChannel::open)) {
            there.bind(far); // it is there, whatever thread binds
        }
    }

    @Test
    void theThreadComesBackWhetherTheWorkReturnsOrThrows() throws Exception {
        Path own = Path.of("/proc/thread-self/ns/net");
        String before = Files.readSymbolicLink(own).toString();
        String inside = NetworkNamespace.call(link.farNamespace(), () -> Files.readSymbolicLink(own).toString());
        assertFalse(before.equals(inside), "inside is elsewhere");
        assertEquals(before, Files.readSymbolicLink(own).toString());

        IllegalStateException thrown = new IllegalStateException("inside");
        assertSame(thrown, assertThrows(IllegalStateException.class,
                () -> NetworkNamespace.call(link.farNamespace(), () -> {
                    throw thrown;
                })));
        assertEquals(before, Files.readSymbolicLink(own).toString());

        assertThrows(IOException.class, () -> NetworkNamespace.call("gsh7-missing", () -> 1));
        assertThrows(IllegalArgumentException.class, () -> NetworkNamespace.call("../etc", () -> 1));
        assertEquals(before, Files.readSymbolicLink(own).toString());
    }

    @Test
    void closingTwiceOrAfterRemovalIsQuiet() throws Exception {
        VethLink again = VethLink.create("gsh7", "10.77.7.1/24", "10.77.7.2/24"); // replaces the leftover
        assertTrue(Files.exists(Path.of("/sys/class/net", again.hostDevice())));
        again.close();
        assertFalse(Files.exists(Path.of("/sys/class/net", again.hostDevice())));
        assertFalse(Files.exists(Path.of("/var/run/netns", again.farNamespace())));
        again.close();
        link.close(); // its devices went with the replacement's
    }

    @Test
    void badNamesAndAddressesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> VethLink.create("gsh7-x", "10.77.7.1/24", "10.77.7.2/24"));
        assertThrows(IllegalArgumentException.class,
                () -> VethLink.create("gsh7toolongname", "10.77.7.1/24", "10.77.7.2/24"));
        assertThrows(IllegalArgumentException.class, () -> VethLink.create("gsh7", "10.77.7.1", "10.77.7.2/24"));
        assertThrows(IllegalArgumentException.class, () -> VethLink.create("gsh7", "10.77.7.1/24", "10.77.7.256/24"));
    }
}
