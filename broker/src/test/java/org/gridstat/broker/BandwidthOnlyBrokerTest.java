package org.gridstat.broker;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/**
 * A broker with its control channel admits as the simulator's does when asked: by bandwidth alone,
 * giving flows the minimum rates and ceilings it is given.
 */
class BandwidthOnlyBrokerTest {
    private static final long MS = 1_000_000L;

    /** A 322 kbit/s link: one 1,500-byte frame on it blocks 37 ms, more than a 50 ms bound's hop deadline. */
    private static Topology slowLink() {
        Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, 40);
        shares.put(ServiceClass.LRT, 30);
        shares.put(ServiceClass.BE, 30);
        return Topology.builder().router("a", 1_000_000).router("b", 1_000_000).link("a", "b", 40_320, MS, shares).build();
    }

    private static AdmissionResult subscribe(QosBroker broker) {
        broker.declare("s1/pmu1/freq", "a", 260, 50 * MS, ServiceClass.HRT, "s1").join();
        return broker.subscribe("s1/pmu1/freq", "b", "cc", QosSpec.builder().interval(Duration.ofMillis(50))
                .latencyBound(Duration.ofMillis(50)).serviceClass(ServiceClass.HRT).build()).join();
    }

    @Test
    void admitsByBandwidthAloneWithTheRatesItIsGiven() {
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        try (QosBroker full = new QosBroker(slowLink(), any)) {
            assertInstanceOf(AdmissionResult.Rejected.class, subscribe(full), "the EDF test refuses it");
        }
        FlowRates rates = FlowRates.DEFAULT.with(ServiceClass.HRT, 1.0, 4.0);
        try (QosBroker bandwidthOnly = new QosBroker(slowLink(), any, ControlLimits.DEFAULT, false, rates)) {
            assertInstanceOf(AdmissionResult.Admitted.class, subscribe(bandwidthOnly));
            assertTrue(bandwidthOnly.controlAddress().getPort() > 0, "its control channel listens");
            InstallFlow flow = bandwidthOnly.flows().get("a").get(0);
            FlowSpec spec = flow.spec();
            assertEquals(20 * 288, spec.assuredRate());
            assertEquals(20 * 288, spec.minimumRate());
            assertEquals(4 * 20 * 288, spec.ceilingRate());
        }
    }
}
