package org.gridstat.node.gateway;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.gridstat.gateway.PhasorGateway;
import org.gridstat.gateway.ingest.VariableNames;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.junit.jupiter.api.Test;

/** The example gateway files the distribution ships fit the example network and the PMU simulator's defaults. */
class ShippedGatewayFilesTest {
    private static final Path CONF = Path.of("..", "distribution", "src", "main", "dist", "conf");

    @Test
    void theSubstationReadsThePmuSimulatorAndTheControlCenterSubscribesToWhatItPublishes() {
        PhasorGateway.Settings substation = GatewayFile.settings(CONF.resolve("gateway-substation.yaml"));
        PhasorGateway.Settings cc = GatewayFile.settings(CONF.resolve("gateway-control-center.yaml"));
        assertEquals("r1", substation.routerId());
        assertEquals(9470, substation.router().getPort(), "r1's data port in topology-example.yaml");
        assertEquals(4712, substation.devices().get(0).settings().address().getPort(), "pmu-sim's --tcp in the docs");
        assertEquals(7, substation.devices().get(0).settings().idCode(), "pmu-sim's default --id-code");
        // pmu-sim's first PMU is named PMU-1: the variable the control center subscribes to
        var pmu = PmuSimulator.configFor(new org.gridstat.gateway.pmusim.PmuSimSpec(7, 2, 30, 3_000_000, List.of(
                new org.gridstat.gateway.pmusim.SimulatedPmu("PMU-1", 7,
                        org.gridstat.gateway.c37118.config.DataFormat.of(true, true, true, true), 6, 2, 1,
                        org.gridstat.gateway.c37118.config.NominalFrequency.HZ_60)), 1)).pmus();
        assertEquals(cc.streams().get(0).settings().pmuVariables(),
                VariableNames.samples(substation.devices().get(0).prefix(), pmu));
        assertEquals(9501, cc.listen().getPort(), "r4's delivery link cc in topology-example.yaml");
        assertEquals("r4", cc.streams().get(0).subscription().router());
        assertEquals("cc", cc.streams().get(0).subscription().link());
        assertEquals(ChannelName.FIXED_LENGTH, pmu.get(0).station().length());
    }
}
