package org.gridstat.node.gateway;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.gridstat.gateway.PhasorGateway;
import org.gridstat.gateway.report.ReportNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway file's reporting keys: the id and period the devices are reported to the broker under. */
class GatewayFileTest {
    @TempDir
    Path dir;

    private static final String DEVICE = "publish: {router: r1, address: 127.0.0.1:9470}\n"
            + "devices:\n  - {name: %s, address: 127.0.0.1:4712, idCode: 7, prefix: utilityA/sub1}\n";

    private PhasorGateway.Settings read(String yaml) throws Exception {
        return GatewayFile.settings(Files.writeString(dir.resolve("gateway.yaml"), yaml));
    }

    private IllegalArgumentException refused(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> read(yaml));
    }

    @Test
    void theIdAndPeriodAreTheFilesOrTheHostAndTwoSeconds() throws Exception {
        PhasorGateway.Settings given = read("broker: http://127.0.0.1:8470\ngatewayId: gw-east.1\nreportPeriod: 500ms\n"
                + DEVICE.formatted("pmu-1"));
        assertEquals("gw-east.1", given.gatewayId());
        assertEquals(Duration.ofMillis(500), given.reportPeriod());
        PhasorGateway.Settings defaults = read(DEVICE.formatted("pmu-1"));
        assertEquals(ReportNames.hostGatewayId(), defaults.gatewayId());
        assertTrue(ReportNames.valid(defaults.gatewayId()), defaults.gatewayId());
        assertEquals(Duration.ofSeconds(2), defaults.reportPeriod());
    }

    @Test
    void aNameOrPeriodTheBrokerWouldRefuseIsAnErrorNamingTheKey() {
        assertEndsWith("gatewayId must be 1..64 letters, digits, '.', '_' or '-', got 'gw east'",
                refused("gatewayId: gw east\n" + DEVICE.formatted("pmu-1")).getMessage());
        assertEndsWith("reportPeriod must be 100ms..10m, got 50ms",
                refused("reportPeriod: 50ms\n" + DEVICE.formatted("pmu-1")).getMessage());
        assertEndsWith("device pmu+1: name: a device reported to the broker is named by 1..64 letters, digits, '.', '_' or '-'",
                refused("broker: http://127.0.0.1:8470\n" + DEVICE.formatted("pmu+1")).getMessage());
    }

    /** Errors name the file first, then the key. */
    private static void assertEndsWith(String expected, String message) {
        assertTrue(message.endsWith(": " + expected), message);
    }

    @Test
    void withoutABrokerADevicesNameIsItsOwnAffair() throws Exception {
        assertEquals("pmu+1", read(DEVICE.formatted("pmu+1")).devices().get(0).settings().name());
    }
}
