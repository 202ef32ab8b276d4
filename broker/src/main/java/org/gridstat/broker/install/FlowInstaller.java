package org.gridstat.broker.install;

import org.gridstat.core.control.ControlMessage.InstallFlow;

/**
 * Where a broker sends the flow changes it decided: the control channel to the routers, or, for
 * the simulator and the console's what-if, routers running in the same process. Called with the
 * broker's decisions in order; an implementation must not call back into the broker.
 */
public interface FlowInstaller {
    /** Installs or changes a flow on {@code router}; idempotent by the flow's version. */
    void install(String router, InstallFlow flow);

    /** Removes flow {@code flowId} from {@code router} if it is not newer than {@code version}. */
    void remove(String router, long flowId, long version);
}
