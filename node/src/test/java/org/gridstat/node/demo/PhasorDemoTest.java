package org.gridstat.node.demo;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code gridstat demo --phasor}: the path from a simulated PMU to a C37.118 client runs and says so. */
class PhasorDemoTest {
    @Test
    void everyFrameTheClientGetsIsThePmusOwnAndTheDemoSucceeds() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        // deadlines a loaded machine cannot miss: the test is about the path, not the machine's latency
        int code = new PhasorDemo(2, new PrintStream(text, true, StandardCharsets.UTF_8), Duration.ofSeconds(2),
                Duration.ofSeconds(1)).run();
        String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.matches("(?s).*summary: (\\d+) frames, \\1 bit-identical to the PMU's, 0 PMU blocks absent.*"), out);
    }
}
