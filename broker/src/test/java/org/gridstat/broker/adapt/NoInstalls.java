package org.gridstat.broker.adapt;

import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.core.control.ControlMessage;

/** An installer that sends nothing: for in-process brokers whose tests read the broker's own state. */
final class NoInstalls implements FlowInstaller {
    static final FlowInstaller INSTANCE = new NoInstalls();

    private NoInstalls() {
    }

    @Override
    public void install(String router, ControlMessage.InstallFlow flow) {
    }

    @Override
    public void remove(String router, long flowId, long version) {
    }
}
