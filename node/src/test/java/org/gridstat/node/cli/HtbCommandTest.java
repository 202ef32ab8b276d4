package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.gridstat.htb.netns.VethLink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code gridstat htb} on a veth pair of the test's own: apply, show, clear, and what it refuses. */
class HtbCommandTest {
    private VethLink veth;

    @BeforeEach
    void pair() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        veth = VethLink.create("gsc1", "10.77.41.1/24", "10.77.41.2/24");
    }

    @AfterEach
    void unpair() {
        if (veth != null) {
            veth.close();
        }
    }

    private static String tc(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "tc";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void applyBuildsTheLinksTreeShowPrintsItAndClearLeavesTheDeviceAsItWas() throws Exception {
        String dev = veth.hostDevice();
        String before = tc("qdisc", "show", "dev", dev);
        CommandRun apply = CommandRun.of("htb", "--dev", dev, "apply", "--capacity", "100000", "--hrt", "40", "--lrt", "30",
                "--be", "30", "--to", "10.77.41.2", "--flow", "id=1,variable=77,class=HRT,rate=20000,ceil=40000",
                "--flow", "id=2,variable=78,class=BE,rate=5000");
        assertEquals(0, apply.code(), apply.err());
        String classes = tc("class", "show", "dev", dev);
        for (String id : new String[] {"1:1 ", "1:2 ", "1:10 ", "1:20 ", "1:30 ", "1:101 ", "1:102 "}) {
            assertTrue(classes.contains("class htb " + id), id + " in\n" + classes);
        }
        assertTrue(tc("filter", "show", "dev", dev).contains("flowid 1:101"), "the HRT flow's filter");

        CommandRun show = CommandRun.of("htb", "--dev", dev, "show", "--interval", "0");
        assertEquals(0, show.code(), show.err());
        assertTrue(show.out().contains("1:10") && show.out().contains("HRT") && show.out().contains("1:101")
                && show.out().contains("flow"), show.out());
        assertTrue(show.out().contains("100,000"), "the link's rate: " + show.out());

        CommandRun again = CommandRun.of("htb", "--dev", dev, "apply", "--capacity", "100000", "--to", "10.77.41.2");
        assertEquals(1, again.code(), "a device with an HTB root is refused");
        assertTrue(again.err().contains("gridstat htb clear"), again.err());

        CommandRun clear = CommandRun.of("htb", "--dev", dev, "clear");
        assertEquals(0, clear.code(), clear.err());
        assertTrue(clear.out().contains("removed"), clear.out());
        assertEquals(before, tc("qdisc", "show", "dev", dev));
        CommandRun none = CommandRun.of("htb", "--dev", dev, "show");
        assertEquals(0, none.code());
        assertTrue(none.out().contains("no HTB root"), none.out());
    }

    @Test
    void anUnknownDeviceOrBadFiguresAreRefusedWithTheReason() {
        CommandRun unknown = CommandRun.of("htb", "--dev", "nosuchdev0", "clear");
        assertEquals(1, unknown.code());
        assertTrue(unknown.err().contains("nosuchdev0"), unknown.err());
        CommandRun zero = CommandRun.of("htb", "--dev", veth.hostDevice(), "apply", "--capacity", "0", "--to", "10.77.41.2");
        assertEquals(2, zero.code());
        assertTrue(zero.err().contains("capacity"), zero.err());
        CommandRun v6 = CommandRun.of("htb", "--dev", veth.hostDevice(), "apply", "--capacity", "1000", "--to", "::1");
        assertEquals(2, v6.code());
        CommandRun badFlow = CommandRun.of("htb", "--dev", veth.hostDevice(), "apply", "--capacity", "1000", "--to",
                "10.77.41.2", "--flow", "id=1,variable=7,class=HRT,rate=0");
        assertEquals(2, badFlow.code());
        assertTrue(badFlow.err().contains("rate"), badFlow.err());
    }

    /** Variable ids are unsigned 64-bit, as events carry them: the high bit set, decimal or 0x hexadecimal. */
    @Test
    void aFlowsVariableIsTheIdItsEventsCarryHighBitIncludedInDecimalOrHexadecimal() throws Exception {
        String dev = veth.hostDevice();
        CommandRun apply = CommandRun.of("htb", "--dev", dev, "apply", "--capacity", "100000", "--to", "10.77.41.2",
                "--flow", "id=1,variable=0x8000000000000007,class=HRT,rate=20000",
                "--flow", "id=2,variable=18446744073709551614,class=BE,rate=5000");
        assertEquals(0, apply.code(), apply.err());
        String filters = tc("filter", "show", "dev", dev);
        assertTrue(filters.contains("match 80000000/ffffffff at 36") && filters.contains("match 00000007/ffffffff at 40"),
                "flow 1's variable in the payload's bytes 8-15: " + filters);
        assertTrue(filters.contains("match ffffffff/ffffffff at 36") && filters.contains("match fffffffe/ffffffff at 40"),
                "flow 2's: " + filters);
        assertEquals(0, CommandRun.of("htb", "--dev", dev, "clear").code());
    }

    /** One leaf and one filter a flow, one flow a variable (as the router's engine): what would clash is refused. */
    @Test
    void aFlowIdOrVariableGivenTwiceOrAVariableThatIsNoIdIsRefusedAndTheDeviceIsLeftAlone() throws Exception {
        String dev = veth.hostDevice();
        String before = tc("qdisc", "show", "dev", dev);
        String[][] bad = {
                {"id=1,variable=7,class=HRT,rate=1000", "id=1,variable=8,class=BE,rate=1000"},
                {"id=2,variable=7,class=HRT,rate=1000", "variable=8,class=BE,rate=1000"}, // the second's id is 2 too
                {"id=1,variable=7,class=HRT,rate=1000", "id=2,variable=0x7,class=BE,rate=1000"},
                {"id=1,variable=0,class=HRT,rate=1000"},
                {"id=1,class=HRT,rate=1000"},
                {"id=1,variable=seven,class=HRT,rate=1000"},
                {"id=1,variable=7,class=urgent,rate=1000"}};
        for (String[] flows : bad) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("htb", "--dev", dev, "apply",
                    "--capacity", "100000", "--to", "10.77.41.2"));
            for (String f : flows) {
                args.add("--flow");
                args.add(f);
            }
            CommandRun run = CommandRun.of(args.toArray(new String[0]));
            assertEquals(2, run.code(), String.join(" ", flows) + ": " + run.err());
            assertTrue(run.err().contains("variable") || run.err().contains("id") || run.err().contains("class"), run.err());
            assertEquals(before, tc("qdisc", "show", "dev", dev), "nothing built");
        }
    }
}
