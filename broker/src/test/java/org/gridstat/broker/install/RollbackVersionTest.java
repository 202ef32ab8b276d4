package org.gridstat.broker.install;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/**
 * QosBroker.modify, when the new flows cannot be sent, rolls the planner back with {@code remove}
 * then {@code restore(old request, old paths, old flow ids)}: a flow only that subscription used
 * would come back at the first version, below the one the router holds, and the router would take
 * the next real change to it for stale and ignore it; so the rollback gives the versions back too.
 */
class RollbackVersionTest {
    private static final long MS = 1_000_000L;

    private static SubscriptionRequest at(double hz) {
        QosSpec q = QosSpec.builder().rateHz(hz).latencyBound(Duration.ofMillis(50)).serviceClass(ServiceClass.HRT).build();
        return new SubscriptionRequest(1, VariableId.of(7), "a", "b", 260, q, "bb", 16_666_667);
    }

    private static long versionAt(FlowPlanner p, String router) {
        List<InstallFlow> flows = p.flows().get(router);
        assertEquals(1, flows.size());
        return flows.get(0).version();
    }

    @Test
    void aFlowRolledBackKeepsAVersionAboveTheOneTheRouterHolds() {
        Admitted paths = new Admitted(1, List.of(List.of(new Hop("a", "b", 10 * MS, 40 * MS, 0),
                new Hop("b", null, 40 * MS, 0, 0))));
        FlowPlanner planner = new FlowPlanner(5L << 32);
        planner.add(at(60), paths);
        planner.replace(at(30), paths); // sent: the routers hold this version
        long held = versionAt(planner, "a");
        List<Long> ids = planner.flowIdsOf(1);
        List<Long> versions = planner.versionsOf(1);

        // modify to 20 Hz refused after planning (unsendable): QosBroker's rollback
        planner.replace(at(20), paths);
        planner.remove(1);
        planner.restore(at(30), paths, ids);
        planner.restoreVersions(1, versions);
        assertEquals(held, versionAt(planner, "a"), "the version the router holds, for the content it holds");
        assertEquals(ids, planner.flowIdsOf(1), "the routers' flow ids are back");

        List<FlowPlanner.Change> next = planner.replace(at(10), paths); // the next modification, sent
        for (FlowPlanner.Change c : next) {
            assertTrue(c.install().version() > held, "router " + c.router() + " holds version " + held
                    + " of flow " + c.install().spec().flowId() + "; the change carries " + c.install().version());
        }
    }
}
