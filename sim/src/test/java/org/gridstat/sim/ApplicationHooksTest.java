package org.gridstat.sim;

import static org.gridstat.sim.reproduce.RatatoskrNetwork.MS;
import static org.gridstat.sim.reproduce.RatatoskrNetwork.S;
import static org.gridstat.sim.reproduce.RatatoskrNetwork.requestVariable;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.reproduce.RatatoskrNetwork;
import org.junit.jupiter.api.Test;

/** An application on the simulated network: it publishes samples of its own, listens to payloads, ends the run. */
class ApplicationHooksTest {
    private record Heard(long at, long sequence, byte[] payload) {
    }

    private static Simulation network(long duration) {
        return Simulation.prepare(RatatoskrNetwork.scenario(0, 0, 0, duration, 1));
    }

    @Test
    void payloadsArriveAsSentOncePerSampleThoughTwoPathsCarryThem() {
        Simulation sim = network(2 * S);
        List<Heard> twoPaths = new ArrayList<>();
        List<Heard> onePath = new ArrayList<>();
        sim.listen(requestVariable(2), "sub", "server", (seq, sourceTime, bytes, offset, length) ->
                twoPaths.add(new Heard(sim.loop().now(), seq, Arrays.copyOfRange(bytes, offset, offset + length))));
        sim.listen(requestVariable(1), "sub", "server", (seq, sourceTime, bytes, offset, length) ->
                onePath.add(new Heard(sim.loop().now(), seq, Arrays.copyOfRange(bytes, offset, offset + length))));
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] payload = ("request " + i + "!".repeat(i * 40)).getBytes(StandardCharsets.US_ASCII);
            sent.add(payload);
            sim.loop().at(100 * MS + i * 10 * MS, () -> assertTrue(sim.publish(requestVariable(2), payload)));
        }
        SimulationResult r = sim.execute();

        assertEquals(5, twoPaths.size(), "each sample once, the copy of the other path dropped: " + twoPaths);
        for (int i = 0; i < 5; i++) {
            Heard h = twoPaths.get(i);
            assertEquals(i, h.sequence());
            assertArrayEquals(sent.get(i), h.payload());
            long latency = h.at() - (100 * MS + i * 10 * MS);
            assertTrue(latency > 6 * MS && latency < 7 * MS, "over path A's 6 links of 1 ms: " + latency);
        }
        assertEquals(10, r.links().get("sub/server").datagramsDelivered(), "both paths' copies reached the server's link");
        FlowInterval sum = r.summary(requestVariable(2));
        assertEquals(5, sum.offered(), "the samples sent count for the subscription: " + sum);
        assertEquals(5, sum.delivered());
        assertTrue(onePath.isEmpty(), "a variable starting at the end has no periodic source: " + onePath);
        assertEquals(0, r.summary(requestVariable(1)).offered());
    }

    @Test
    void unknownVariablesAndLinksAreRefusedAndPublishingWaitsForTheRun() {
        Simulation sim = network(S);
        IllegalArgumentException noVariable = assertThrows(IllegalArgumentException.class,
                () -> sim.listen("rpc/nothing", "sub", "server", (q, t, b, o, l) -> { }));
        assertTrue(noVariable.getMessage().contains("no variable 'rpc/nothing'"), noVariable.getMessage());
        IllegalArgumentException noLink = assertThrows(IllegalArgumentException.class,
                () -> sim.listen(requestVariable(1), "sub", "operator", (q, t, b, o, l) -> { }));
        assertTrue(noLink.getMessage().contains("no delivery link 'sub/operator' (known: "), noLink.getMessage());
        assertThrows(IllegalStateException.class, () -> sim.publish(requestVariable(1), new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> sim.publish("rpc/nothing", new byte[1]));
    }

    @Test
    void stoppingEndsTheRunAfterTheActionThatStopped() {
        Simulation sim = network(10 * S);
        boolean[] later = new boolean[1];
        sim.loop().at(500 * MS, sim::stop);
        sim.loop().at(500 * MS + 1, () -> later[0] = true);
        SimulationResult r = sim.execute();
        assertFalse(later[0], "nothing after the stop runs");
        assertEquals(500 * MS, sim.loop().now());
        assertEquals(500 * MS + 1, r.durationNanos(), "the run covers [0, 500 ms]");
        assertEquals(500 * MS + 1, r.summary(requestVariable(1)).toNanos());
    }
}
