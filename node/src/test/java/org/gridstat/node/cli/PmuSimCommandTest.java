package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code gridstat pmu-sim}'s help and its refusals of bad options, as a newcomer meets them. */
class PmuSimCommandTest {
    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine c = Gridstat.commandLine();
        c.setOut(new PrintWriter(out));
        c.setErr(new PrintWriter(err));
        return c.execute(args);
    }

    @Test
    void helpWorksAndNamesTheFrameVersionOption() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "pmu-sim", "--help"), err.toString());
        assertTrue(out.toString().contains("--frame-version"), out.toString());
    }

    @Test
    void badOptionsExitTwoNamingTheOption() {
        PmuSimCommand c = new PmuSimCommand();
        new CommandLine(c).parseArgs("--format", "nonsense");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::spec);
        assertTrue(e.getMessage().startsWith("--format is int-rect, int-polar, float-rect or float-polar"), e.getMessage());
        c = new PmuSimCommand();
        new CommandLine(c).parseArgs("--pmus", "400", "--format", "int-rect", "--digitals", "20");
        e = assertThrows(IllegalArgumentException.class, c::spec);
        assertTrue(e.getMessage().contains("65,535 bytes"), e.getMessage());
        assertEquals(2, run(new StringWriter(), new StringWriter(), "pmu-sim", "--frame-version", "3"));
    }
}
