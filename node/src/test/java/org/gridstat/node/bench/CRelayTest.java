package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.gridstat.node.FreeUdpPorts;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Reading what the C relay says, that its source ships intact, and (where gcc is installed) that
 * the built relay forwards on loopback, counts, and ends when told or when the bench is gone.
 */
class CRelayTest {
    @Test
    void theClosingLineGivesTheRelaysCounts() {
        CRelay.Stats s = CRelay.parseStopped("crelay stopped received=1200345 sent=1200340 errors=5 batches=40011");
        assertEquals(new CRelay.Stats(1_200_345, 1_200_340, 5, 40_011), s);
        assertEquals(30.0, s.perBatch(), 0.01);
    }

    @Test
    void otherLinesAreNotCounts() {
        assertNull(CRelay.parseStopped("crelay ready port=20001 dest=20002 batch=64"));
        assertNull(CRelay.parseStopped("crelay: recvmmsg: Bad file descriptor"));
        assertNull(CRelay.parseStopped("crelay stopped received=12 sent=x errors=0 batches=1"));
        assertEquals(0, new CRelay.Stats(0, 0, 0, 0).perBatch());
    }

    @Test
    void theReadyLineGivesPortsAndBatch() {
        assertArrayEquals(new int[] {20001, 20002, 64}, CRelay.parseReady("crelay ready port=20001 dest=20002 batch=64"));
        assertNull(CRelay.parseReady("crelay stopped received=1 sent=1 errors=0 batches=1"));
    }

    @Test
    void theSourceIsOnTheClasspathUntouchedByResourceFiltering() throws Exception {
        try (InputStream in = CRelay.class.getResourceAsStream("crelay.c")) {
            assertNotNull(in, "crelay.c is packaged next to CRelay");
            String source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(source.contains("recvmmsg(") && source.contains("sendmmsg("), "the batched calls");
            assertTrue(source.contains("crelay stopped received=%llu sent=%llu errors=%llu batches=%llu"),
                    "prints what parseStopped reads");
            assertTrue(source.contains("crelay ready port=%d dest=%d batch=%d"), "prints what parseReady reads");
        }
    }

    @Test
    void theBuiltRelayForwardsCountsAndStopsOnSigterm() throws Exception {
        CRelay.Build build = buildOrSkip();
        int in = FreeUdpPorts.pick();
        int out = FreeUdpPorts.pick();
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", out));
             DatagramChannel source = DatagramChannel.open();
             CRelay relay = CRelay.start(build, in, out, null, 60)) {
            ByteBuffer frame = ByteBuffer.allocate(260);
            for (int i = 0; i < 100; i++) {
                frame.clear().putInt(0, i);
                source.send(frame, new InetSocketAddress("127.0.0.1", in));
            }
            ByteBuffer got = ByteBuffer.allocate(2048);
            for (int i = 0; i < 100; i++) {
                got.clear();
                sink.receive(got);
                assertEquals(260, got.position(), "whole datagrams");
            }
            CRelay.Stats stats = relay.stop();
            assertEquals(new CRelay.Stats(100, 100, 0, stats.batches()), stats);
            assertTrue(stats.batches() >= 1 && stats.batches() <= 100);
            assertFalse(relay.process().isAlive());
        } finally {
            CRelay.delete(build);
        }
    }

    @Test
    void theRelayEndsWhenItsStandardInputClosesAndStillSaysItsCounts() throws Exception {
        CRelay.Build build = buildOrSkip();
        try (CRelay relay = CRelay.start(build, FreeUdpPorts.pick(), FreeUdpPorts.pick(), null, 60)) {
            relay.process().getOutputStream().close(); // what the kernel does when the bench's JVM dies, however
            assertTrue(relay.process().waitFor(5, TimeUnit.SECONDS), "relay exits without the bench");
            // Process.destroy closes the pipe right after its SIGTERM: the counts must not be lost to that race.
            assertEquals(new CRelay.Stats(0, 0, 0, 0), CRelay.parseStopped(relay.output()), relay.output());
        } finally {
            CRelay.delete(build);
        }
    }

    private static CRelay.Build buildOrSkip() throws Exception {
        CRelay.Build build = CRelay.compile();
        Assumptions.assumeTrue(build.available(), () -> "C relay not built: " + build.skipReason());
        return build;
    }
}
