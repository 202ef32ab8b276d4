package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.statusrouter.api.RouterConfiguration;
import org.junit.jupiter.api.Test;

class RouterSettingsTest {
    @Test
    void theSourceTimeWindowKeysMustBePositiveAndAreNamedWhenNot() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> RouterSettings.sourceTimeTrust(0, 10_000));
        assertTrue(zero.getMessage().contains("source.time.ahead.ms must be positive"), zero.getMessage());
        assertTrue(zero.getMessage().endsWith("got 0"), zero.getMessage());
        IllegalArgumentException age = assertThrows(IllegalArgumentException.class, () -> RouterSettings.sourceTimeTrust(2_000, -1));
        assertTrue(age.getMessage().endsWith("source.time.max.age.ms must be positive, got -1"), age.getMessage());
        assertEquals(new SourceTimeTrust(1_000_000L, 10_000_000_000L), RouterSettings.sourceTimeTrust(1, 10_000));
        assertEquals(new SourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE),
                RouterSettings.sourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE), "beyond a long of nanoseconds: everything");
    }

    @Test
    void maxFlowsPerLinkIsAtMostSixtyFiveThousandFiveHundredAndThirtySix() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RouterSettings.of("r1",
                "127.0.0.1:0", 1, "nio", 1 << 20, new String[0], new String[0], new String[0], 1_000_000_000L, 0.5, 65_537));
        assertTrue(e.getMessage().contains("max.flows.per.link must be 1..65536, got 65537"), e.getMessage());
        assertEquals(65_536, RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20, new String[0], new String[0],
                new String[0], 1_000_000_000L, 0.5, 65_536).maxFlowsPerLink);
    }

    private static RouterSettings boundAt(String bind) {
        return RouterSettings.of("r1", bind, 1, "nio", 1 << 20, new String[0]);
    }

    @Test
    void aPriorityPortThatIsTheDataPortUnderAnotherNameIsRefused() {
        IllegalArgumentException byName = assertThrows(IllegalArgumentException.class,
                () -> boundAt("127.0.0.1:9470").withPriorityPort("localhost:9470"));
        assertEquals("invalid status router configuration: priority.bind localhost:9470 overlaps data.bind 127.0.0.1:9470:"
                + " the same port on the same address once resolved; give the priority port a port of its own",
                byName.getMessage());
        IllegalArgumentException wildcard = assertThrows(IllegalArgumentException.class,
                () -> boundAt("0.0.0.0:9470").withPriorityPort("127.0.0.1:9470"));
        assertEquals("invalid status router configuration: priority.bind 127.0.0.1:9470 overlaps data.bind 0.0.0.0:9470:"
                + " the same port, and 0.0.0.0 is every address; give the priority port a port of its own",
                wildcard.getMessage());
        IllegalArgumentException intoWildcard = assertThrows(IllegalArgumentException.class,
                () -> boundAt("127.0.0.1:9470").withPriorityPort("0.0.0.0:9470"));
        assertTrue(intoWildcard.getMessage().contains("0.0.0.0 is every address"), intoWildcard.getMessage());

        assertEquals(9469, boundAt("127.0.0.1:9470").withPriorityPort("localhost:9469").priorityBind.port(),
                "a port of its own");
        assertEquals("127.0.0.2", boundAt("127.0.0.1:9470").withPriorityPort("127.0.0.2:9470").priorityBind.host(),
                "another address on the same port");
        assertEquals(0, boundAt("127.0.0.1:0").withPriorityPort("127.0.0.1:0").priorityBind.port(),
                "two ports the system picks are two ports");
    }

    @Test
    void congestionControlIsOffUnlessAskedForAndABadValueIsNamed() {
        RouterSettings s = boundAt("127.0.0.1:0");
        LocalCongestionControl bundle = new LocalCongestionControl();
        assertFalse(s.congestionControl, "off by default");
        for (String on : new String[] {"on", "ON", " true "}) {
            assertTrue(s.withCongestionControl(on, bundle).congestionControl, on);
            assertSame(bundle, s.withCongestionControl(on, bundle).congestion, on);
        }
        for (String off : new String[] {"off", "False", null}) {
            RouterSettings o = s.withCongestionControl("on", bundle).withCongestionControl(off, bundle);
            assertFalse(o.congestionControl, off);
            assertNull(o.congestion, off);
            assertFalse(o.congestionMissing, off);
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> s.withCongestionControl("yes", bundle));
        assertEquals("invalid status router configuration: congestion.control must be on, local or off, got 'yes'",
                bad.getMessage());
        assertTrue(s.withCongestionControl("on", bundle).congestionNotices, "on: reassignment and notices");
        RouterSettings local = s.withCongestionControl("local", bundle);
        assertTrue(local.congestionControl && !local.congestionNotices, "local: reassignment and holds, no notices");
        assertFalse(s.congestionNotices);
        assertThrows(IllegalArgumentException.class, () -> s.withCongestionControl("", bundle));

        RouterSettings on = s.withCongestionControl("on", bundle);
        assertTrue(on.withBrokerLinks(List.of()).boundAt(new java.net.InetSocketAddress("127.0.0.1", 9470), null)
                .busyPolling(true).warmingUp(0).congestionNotices, "kept when the broker's links restart the data plane");
    }

    @Test
    void congestionControlAskedForWithoutItsBundleIsOffAndSaysSo() {
        for (String asked : new String[] {"on", "local"}) {
            RouterSettings s = boundAt("127.0.0.1:0").withCongestionControl(asked, null);
            assertFalse(s.congestionControl, asked);
            assertFalse(s.congestionNotices, asked);
            assertTrue(s.congestionMissing, asked);
            assertTrue(s.withBrokerLinks(List.of()).congestionMissing, "kept across a restart");
        }
        assertFalse(boundAt("127.0.0.1:0").withCongestionControl("off", null).congestionMissing, "nothing asked");
    }

    @Test
    void theRoutersConfigurationCheckTakesTheCongestionControlKey() {
        RouterConfiguration.check(Map.of("node.id", "r1", "congestion.control", "on"));
        RouterConfiguration.check(Map.of("node.id", "r1", "congestion.control", Boolean.TRUE)); // a typed property
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RouterConfiguration.check(Map.of("node.id", "r1", "congestion.control", "sometimes")));
        assertTrue(e.getMessage().contains("congestion.control must be on, local or off, got 'sometimes'"), e.getMessage());
    }
}
