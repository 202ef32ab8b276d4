package org.gridstat.core.forward;

/**
 * A change to a router's flows, queued from the control plane and applied on the data-path
 * thread. Commands are idempotent by version: one whose version is not newer than the flow's
 * current one is ignored (and counted as stale), so a retransmitted or reordered command is harmless.
 */
public abstract class FlowCommand {
    private final long flowId;
    private final long version;

    private FlowCommand(long flowId, long version) {
        this.flowId = flowId;
        this.version = version;
    }

    public long flowId() {
        return flowId;
    }

    public long version() {
        return version;
    }

    /** Adds the flow, or changes it in place (rates, class, group, buffer, filter, budget). */
    public static FlowCommand install(FlowEntry entry) {
        return new Install(entry);
    }

    /** Removes the flow; its waiting events are released. */
    public static FlowCommand remove(long flowId, long version) {
        return new Remove(flowId, version);
    }

    static final class Install extends FlowCommand {
        final FlowEntry entry;

        Install(FlowEntry entry) {
            super(entry.flowId(), entry.version());
            this.entry = entry;
        }

        @Override
        public String toString() {
            return "install " + entry;
        }
    }

    static final class Remove extends FlowCommand {
        Remove(long flowId, long version) {
            super(flowId, version);
        }

        @Override
        public String toString() {
            return "remove flow " + flowId() + " v" + version();
        }
    }
}
