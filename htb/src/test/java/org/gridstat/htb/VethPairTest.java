package org.gridstat.htb;

import org.gridstat.htb.netns.VethLink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A kernel test on a veth pair of its own: made before each test, with an open {@link Htb} on its
 * near end {@link #dev}, and removed after it; the class skips, saying why, where namespaces or
 * the native library are missing. Each subclass has its own prefix and subnet.
 */
abstract class VethPairTest {
    /** The tests' tree: root 1: with default leaf 1:2, link 1:1 at 10 MB/s, a class node 1:10 for flow leaves. */
    protected static final int LINK = 0x1;
    protected static final int DEFAULT_LEAF = 0x2;
    protected static final int CLASS_NODE = 0x10;

    private final String prefix;
    private final int subnet;
    protected VethLink link;
    protected Htb htb;
    protected String dev;

    /** @param subnet the pair's addresses are 10.77.{subnet}.1 and .2 */
    protected VethPairTest(String prefix, int subnet) {
        this.prefix = prefix;
        this.subnet = subnet;
    }

    @BeforeAll
    static void kernel() {
        KernelShaping.assumeAvailable();
    }

    @BeforeEach
    void wire() throws Exception {
        link = VethLink.create(prefix, "10.77." + subnet + ".1/24", "10.77." + subnet + ".2/24");
        dev = link.hostDevice();
        htb = Htb.open();
    }

    @AfterEach
    void unwire() {
        if (htb != null) {
            htb.close();
        }
        if (link != null) {
            link.close();
        }
    }

    /** Builds the root, the link, the default leaf and the class node on {@link #dev}. */
    protected void baseTree() throws HtbException {
        htb.createRoot(dev, DEFAULT_LEAF);
        htb.addClass(dev, 0, LINK, new ClassRates(10_000_000, 10_000_000, 20_000, 20_000, 0, 0));
        htb.addClass(dev, LINK, DEFAULT_LEAF, new ClassRates(100_000, 10_000_000, 3_000, 3_000, 7, 0));
        htb.addClass(dev, LINK, CLASS_NODE, new ClassRates(1_000_000, 10_000_000, 3_000, 3_000, 0, 0));
    }
}
