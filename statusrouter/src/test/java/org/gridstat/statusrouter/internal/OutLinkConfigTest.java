package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.junit.jupiter.api.Test;

class OutLinkConfigTest {
    private static IllegalArgumentException refused(String line) {
        return assertThrows(IllegalArgumentException.class, () -> OutLinkConfig.parse(line));
    }

    @Test
    void classSharesOfAHugeCapacityAreExact() {
        // 1e17 B/s x 100 percent overflows a long if multiplied first.
        LinkSpec big = OutLinkConfig.parse("name=big address=127.0.0.1:9480 capacity=100000000000000000 hrt=100 lrt=0 be=0").spec;
        assertEquals(100_000_000_000_000_000L, big.classShare(ServiceClass.HRT).rate());
        assertEquals(0, big.classShare(ServiceClass.LRT).rate());

        LinkSpec max = OutLinkConfig.parse("name=max address=127.0.0.1:9480 capacity=" + Long.MAX_VALUE).spec;
        assertEquals(Long.MAX_VALUE / 100 * 50 + Long.MAX_VALUE % 100 * 50 / 100, max.classShare(ServiceClass.HRT).rate());
        assertEquals(4_611_686_018_427_387_903L, max.classShare(ServiceClass.HRT).rate(), "half of Long.MAX_VALUE, rounded down");
        assertEquals(2_767_011_611_056_432_742L, max.classShare(ServiceClass.LRT).rate());
        assertEquals(1_844_674_407_370_955_161L, max.classShare(ServiceClass.BE).rate());
        assertEquals(Long.MAX_VALUE, max.classShare(ServiceClass.BE).ceil());

        LinkSpec odd = OutLinkConfig.parse("name=odd address=127.0.0.1:9480 capacity=999 hrt=33 lrt=33 be=33").spec;
        assertEquals(329, odd.classShare(ServiceClass.HRT).rate(), "999 x 33 / 100 rounded down");
    }

    @Test
    void anEmulatedLinkTooFastToSerializeIsRefusedNamingTheLinkAndTheKey() {
        IllegalArgumentException e = refused("name=wan address=127.0.0.1:9480 capacity=2000000000000000000 delay=5ms");
        assertTrue(e.getMessage().contains("link 'wan'"), e.getMessage());
        assertTrue(e.getMessage().contains("capacity 2000000000000000000 B/s"), e.getMessage());
        assertTrue(e.getMessage().contains("1000000000000000000 B/s"), e.getMessage());
        // The same capacity without emulation is a plain paced link.
        assertEquals(2_000_000_000_000_000_000L,
                OutLinkConfig.parse("name=wan address=127.0.0.1:9480 capacity=2000000000000000000").spec.capacity());
    }

    @Test
    void eachBadLinkKeyIsNamedWithItsLink() {
        IllegalArgumentException shares = refused("name=r2 address=127.0.0.1:9480 hrt=60 lrt=30 be=20");
        assertTrue(shares.getMessage().contains("link 'r2': hrt + lrt + be add up to 110 percent"), shares.getMessage());
        IllegalArgumentException burst = refused("name=r2 address=127.0.0.1:9480 burst=100");
        assertTrue(burst.getMessage().contains("link 'r2': burst:"), burst.getMessage());
        IllegalArgumentException address = refused("name=r2 address=nowhere");
        assertTrue(address.getMessage().contains("link 'r2': address:"), address.getMessage());
        IllegalArgumentException priority = refused("name=r2 address=127.0.0.1:9480 priority=9479");
        assertTrue(priority.getMessage().contains("link 'r2': priority:"), priority.getMessage());
        IllegalArgumentException loss = refused("name=r2 address=127.0.0.1:9480 loss=2");
        assertTrue(loss.getMessage().contains("link 'r2': loss must be a probability"), loss.getMessage());
        IllegalArgumentException share = refused("name=r2 address=127.0.0.1:9480 be=101");
        assertTrue(share.getMessage().contains("link 'r2': be share must be 0..100 percent"), share.getMessage());
        IllegalArgumentException capacity = refused("name=r2 address=127.0.0.1:9480 capacity=0");
        assertTrue(capacity.getMessage().contains("link 'r2': capacity must be positive"), capacity.getMessage());
    }

    @Test
    void theRouterNamesTheLinksSectionTheLinkAndTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RouterSettings.of("r1",
                "127.0.0.1:0", 1, "nio", 1 << 20, new String[] {"name=wan address=127.0.0.1:9480 capacity=2000000000000000000 loss=0.1"},
                new String[0], new String[0], 1_000_000_000L, 0.5, 16));
        assertTrue(e.getMessage().contains("links: "), e.getMessage());
        assertTrue(e.getMessage().contains("link 'wan': capacity"), e.getMessage());
    }

    @Test
    void aQueueOnALinkThatEmulatesNothingIsRefusedNamingTheLink() {
        IllegalArgumentException e = refused("name=r2 address=127.0.0.1:9480 queue=65536");
        assertTrue(e.getMessage().contains("link 'r2': queue bounds an emulated link's queue"), e.getMessage());
        assertTrue(e.getMessage().contains("delay, loss or faultEvery"), e.getMessage());
        assertEquals(65_536, OutLinkConfig.parse("name=r2 address=127.0.0.1:9480 queue=65536 delay=1ms").emulation.queueBytes);
        assertEquals(EmulationConfig.DEFAULT_QUEUE_BYTES,
                OutLinkConfig.parse("name=r2 address=127.0.0.1:9480 loss=0.5").emulation.queueBytes);
    }

    @Test
    void aQueueSmallerThanOneMaximumFrameIsRefused() {
        IllegalArgumentException e = refused("name=wan address=127.0.0.1:9480 delay=5ms queue=1471");
        assertTrue(e.getMessage().contains("link 'wan': queue 1471 B is smaller than one maximum frame (1472 B)"),
                e.getMessage());
        IllegalArgumentException zero = refused("name=wan address=127.0.0.1:9480 delay=5ms queue=0");
        assertTrue(zero.getMessage().contains("link 'wan': queue 0 B"), zero.getMessage());
        assertEquals(1_472, OutLinkConfig.parse("name=wan address=127.0.0.1:9480 delay=5ms queue=1472").emulation.queueBytes,
                "one maximum frame is enough");
    }

    @Test
    void anMtuOutsideItsRangeOrLargerThanAnEmulatedQueueIsRefused() {
        assertTrue(refused("name=a address=127.0.0.1:1 mtu=1471").getMessage().contains("mtu"));
        assertTrue(refused("name=a address=127.0.0.1:1 mtu=65508").getMessage().contains("mtu"));
        IllegalArgumentException e = refused("name=a address=127.0.0.1:1 delay=1ms queue=2000 mtu=9000");
        assertTrue(e.getMessage().contains("queue") && e.getMessage().contains("mtu"), e.getMessage());
        assertEquals(9000, OutLinkConfig.parse("name=a address=127.0.0.1:1 delay=1ms queue=9000 mtu=9000").mtu);
        assertEquals(1472, OutLinkConfig.parse("name=a address=127.0.0.1:1").mtu, "the default");
    }
}
