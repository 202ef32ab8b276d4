package org.gridstat.gateway;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.gateway.egress.EgressSettings;
import org.gridstat.gateway.ingest.DeviceTransport;
import org.junit.jupiter.api.Test;

/** The gateway's Config Admin properties: what they become, and the errors that name what is wrong. */
class GatewayConfigurationTest {
    private static Map<String, Object> properties(String device, String stream) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("broker.api", "http://127.0.0.1:8470");
        p.put("gateway.id", "gw-1");
        p.put("publish.router", "r1");
        p.put("publish.address", "127.0.0.1:9470");
        p.put("listen", "127.0.0.1:9501");
        p.put("devices", device == null ? new String[0] : new String[] {device});
        p.put("streams", stream == null ? new String[0] : new String[] {stream});
        return p;
    }

    private static String error(Map<String, Object> p) {
        return assertThrows(IllegalArgumentException.class, () -> GatewayConfiguration.settings(p)).getMessage();
    }

    @Test
    void linesBecomeDevicesAndStreams() {
        PhasorGateway.Settings s = GatewayConfiguration.settings(properties(
                "name=pmu1 transport=tcp+udp address=127.0.0.1:4712 localUdp=127.0.0.1:4713 idCode=7 prefix=u/s1 class=LRT"
                        + " latencyBound=80ms shaping=off",
                "name=cc idCode=9 pmus=u/s1/A,u/s1/B tcp=127.0.0.1:4722 router=r4 link=cc rateHz=10 paths=2"));
        PhasorGateway.Device d = s.devices().get(0);
        assertEquals(DeviceTransport.TCP_UDP, d.settings().transport());
        assertEquals(7, d.settings().idCode());
        assertEquals(ServiceClass.LRT, d.serviceClass());
        assertEquals(Duration.ofMillis(80), d.latencyBound());
        assertFalse(d.shaping().enabled());
        PhasorGateway.Stream st = s.streams().get(0);
        assertEquals(java.util.List.of("u/s1/A", "u/s1/B"), st.settings().pmuVariables());
        assertEquals(10, st.settings().dataRate());
        assertEquals(2, st.subscription().paths());
        assertEquals("gw-1", s.gatewayId());
    }

    @Test
    void aRateBelowOneFrameASecondIsAnnouncedAsSecondsPerFrame() {
        assertEquals(-2, EgressSettings.dataRateOf(0.5));
        assertEquals(-10, EgressSettings.dataRateOf(0.1));
        assertEquals(30, EgressSettings.dataRateOf(30));
        assertEquals(1, EgressSettings.dataRateOf(1));
        PhasorGateway.Settings s = GatewayConfiguration.settings(properties(null,
                "name=cc idCode=9 pmus=u/s1/A tcp=127.0.0.1:4722 router=r4 link=cc rateHz=0.5"));
        assertEquals(-2, s.streams().get(0).settings().dataRate());
    }

    @Test
    void mistakesAreNamed() {
        assertTrue(error(properties("name=pmu1 transport=carrier-pigeon address=127.0.0.1:1 idCode=7 prefix=u/s", null))
                .contains("carrier-pigeon"));
        assertTrue(error(properties("name=pmu1 address=127.0.0.1:1 prefix=u/s", null)).contains("missing 'idCode'"));
        assertTrue(error(properties("name=pmu1 address=127.0.0.1:1 idCode=7 prefix=u/s colour=red", null))
                .contains("unknown key 'colour'"));
        assertTrue(error(properties(null, "name=cc idCode=9 pmus=u/s1/A")).contains("give tcp, udp or both"));
        assertTrue(error(properties(null, "name=cc idCode=9 pmus=u/s1/A tcp=127.0.0.1:1 router=r4 link=cc"))
                .contains("rateHz"));
        Map<String, Object> noScheme = properties("name=pmu1 address=127.0.0.1:1 idCode=7 prefix=u/s", null);
        noScheme.put("broker.api", "127.0.0.1:8470");
        assertTrue(error(noScheme).startsWith("broker: '127.0.0.1:8470' is not the broker's API address"), error(noScheme));
        Map<String, Object> nothing = properties(null, null);
        assertTrue(error(nothing).contains("nothing to do"));
    }
}
