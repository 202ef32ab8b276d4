package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Requests the kernel refuses, and those it would accept but HTB could not honour, come back as
 * exceptions naming the operation and the errno; the JVM and the socket stay usable.
 *
 * <p>What the kernel refuses by itself: an unknown device (ENODEV), a second root (EEXIST), a class
 * or filter that exists (EEXIST), deleting or changing a class that does not exist (ENOENT), deleting
 * a class with children (EBUSY), a missing filter (ENOENT), classes before the qdisc (ENOENT). What
 * it accepts and this library refuses: a class under a missing parent (the kernel makes it a root
 * class), a rate above the parent's ceil, a filter to a missing or inner class (its packets would go
 * to the default class), a burst longer than the kernel's buffer can hold (ERANGE). ClassRates
 * refuses a rate of 0, a ceil below the rate, bursts of 0, a prio outside 0..7.
 */
class BadArgumentsTest extends VethPairTest {
    private static final int ENOENT = 2;
    private static final int EBUSY = 16;
    private static final int EEXIST = 17;
    private static final int ENODEV = 19;
    private static final int EINVAL = 22;
    private static final int ERANGE = 34;

    BadArgumentsTest() {
        super("gsh5", 5);
    }

    @Test
    void anUnknownDeviceIsRefusedByEveryOperation() {
        String nowhere = "gsh5nowhere";
        U32Match match = U32Match.udp().destinationPort(1).build();
        List<Executable> operations = List.of(
                () -> htb.ifindex(nowhere),
                () -> htb.createRoot(nowhere, 2),
                () -> htb.addClass(nowhere, 0, 1, rates(1_000)),
                () -> htb.addClass(nowhere, 1, 2, rates(1_000)),
                () -> htb.changeClass(nowhere, 0, 1, rates(1_000)),
                () -> htb.deleteClass(nowhere, 1),
                () -> htb.setLeafQueue(nowhere, 1, 10),
                () -> htb.addFilter(nowhere, 1, 1, match),
                () -> htb.deleteFilter(nowhere, 1),
                () -> htb.classes(nowhere),
                () -> htb.rootQdiscKind(nowhere),
                () -> htb.clear(nowhere));
        for (Executable operation : operations) {
            HtbException e = assertThrows(HtbException.class, operation);
            assertRefused(e, ENODEV, nowhere);
        }
        assertEquals("there is no device " + nowhere, htb.whyNot(nowhere));
        assertRefused(assertThrows(HtbException.class, () -> htb.ifindex("a-name-too-long-for-linux")), EINVAL,
                "a-name-too-long-for-linux");
    }

    @Test
    void classesAndFiltersThatDoNotExistAreRefused() throws Exception {
        assertRefused(assertThrows(HtbException.class, () -> htb.addClass(dev, 0, 1, rates(1_000))), ENOENT, dev);
        htb.createRoot(dev, 2);
        assertRefused(assertThrows(HtbException.class, () -> htb.createRoot(dev, 2)), EEXIST, dev);
        htb.addClass(dev, 0, 1, rates(1_000_000));
        htb.addClass(dev, 1, 0x10, rates(100_000));

        HtbException orphan = assertThrows(HtbException.class, () -> htb.addClass(dev, 0x99, 0x5, rates(1_000)));
        assertRefused(orphan, ENOENT, dev);
        assertTrue(orphan.getMessage().contains("parent class 1:99 does not exist"), orphan.getMessage());
        assertRefused(assertThrows(HtbException.class, () -> htb.addClass(dev, 1, 0x10, rates(1_000))), EEXIST, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.deleteClass(dev, 0x77)), ENOENT, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.deleteClass(dev, 1)), EBUSY, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.changeClass(dev, 1, 0x77, rates(1_000))), ENOENT,
                dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.changeClass(dev, 0, 0x10, rates(1_000))), EINVAL,
                dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.setLeafQueue(dev, 0x77, 10)), ENOENT, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.setLeafQueue(dev, 1, 10)), EINVAL, dev);

        U32Match match = U32Match.udp().destinationPort(4_000).build();
        assertRefused(assertThrows(HtbException.class, () -> htb.addFilter(dev, 1, 0x77, match)), ENOENT, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.addFilter(dev, 1, 1, match)), EINVAL, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.deleteFilter(dev, 1)), ENOENT, dev);
        htb.addFilter(dev, 1, 0x10, match);
        assertRefused(assertThrows(HtbException.class, () -> htb.addFilter(dev, 1, 0x10, match)), EEXIST, dev);
        assertRefused(assertThrows(HtbException.class, () -> htb.deleteClass(dev, 0x10)), EBUSY, dev);

        // nothing refused was changed, and the socket still answers
        List<ClassStatistics> classes = htb.classes(dev);
        assertEquals(List.of(1, 0x10), classes.stream().map(ClassStatistics::minor).toList());
        htb.deleteFilter(dev, 1);
        htb.deleteClass(dev, 0x10);
        assertTrue(htb.clear(dev));
    }

    @Test
    void ratesHtbCouldNotHonourAreRefused() throws Exception {
        htb.createRoot(dev, 2);
        htb.addClass(dev, 0, 1, new ClassRates(1_000_000, 2_000_000, 3_000, 3_000, 0, 0));

        HtbException aboveCeil = assertThrows(HtbException.class,
                () -> htb.addClass(dev, 1, 0x10, new ClassRates(3_000_000, 3_000_000, 3_000, 3_000, 0, 0)));
        assertRefused(aboveCeil, EINVAL, dev);
        assertTrue(aboveCeil.getMessage().contains("above the ceil of parent 1:1"), aboveCeil.getMessage());
        htb.addClass(dev, 1, 0x10, new ClassRates(2_000_000, 2_000_000, 3_000, 3_000, 0, 0)); // at the ceil: fine
        assertRefused(assertThrows(HtbException.class,
                () -> htb.changeClass(dev, 1, 0x10, new ClassRates(2_000_001, 2_000_001, 3_000, 3_000, 0, 0))),
                EINVAL, dev);
        assertRefused(assertThrows(HtbException.class,
                () -> htb.addClass(dev, 0, 0x20, new ClassRates(1, 1, 1_000_000, 1_000_000, 0, 0))), ERANGE, dev);

        assertThrows(IllegalArgumentException.class, () -> new ClassRates(0, 1_000, 1_600, 1_600, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ClassRates(2_000, 1_000, 1_600, 1_600, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> htb.addClass(dev, 0, 0, rates(1_000)));
        assertThrows(IllegalArgumentException.class, () -> htb.addClass(dev, 0x10, 0x10, rates(1_000)));
        assertThrows(IllegalArgumentException.class, () -> htb.addClass(dev, 0, 0x10000, rates(1_000)));
        assertThrows(IllegalArgumentException.class, () -> htb.addFilter(dev, 0, 0x10, U32Match.udp().build()));
        assertThrows(IllegalArgumentException.class, () -> htb.addFilter(dev, 0x1000, 0x10, U32Match.udp().build()));
        assertThrows(IllegalArgumentException.class, () -> htb.setLeafQueue(dev, 0x7000, 10));
        assertThrows(IllegalArgumentException.class, () -> htb.setLeafQueue(dev, 0x10, 0));
        assertEquals(List.of(1, 0x10), htb.classes(dev).stream().map(ClassStatistics::minor).toList());
    }

    @Test
    void aClosedHtbRefusesUse() {
        htb.close();
        assertThrows(IllegalStateException.class, () -> htb.classes(dev));
        htb.close(); // again: nothing
    }

    private static void assertRefused(HtbException e, int errno, String device) {
        assertEquals(errno, e.errno(), e.getMessage());
        assertEquals(device, e.device());
        assertTrue(e.getMessage().startsWith(e.operation() + " on " + device + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("(errno " + errno + ")"), e.getMessage());
    }

    private static ClassRates rates(long rate) {
        return new ClassRates(rate, rate, 3_000, 3_000, 0, 0);
    }
}
