package org.gridstat.node.demo;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code gridstat demo --phasor}: the path from a simulated PMU to a C37.118 client runs and says so. */
class PhasorDemoTest {
    @Test
    void everyFrameTheClientGetsIsThePmusOwnAndTheDemoSucceeds() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int code = new PhasorDemo(2, new PrintStream(text, true, StandardCharsets.UTF_8)).run();
        String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.matches("(?s).*summary: (\\d+) frames, \\1 bit-identical to the PMU's, 0 PMU blocks absent.*"), out);
    }
}
