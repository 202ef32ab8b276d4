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
}
