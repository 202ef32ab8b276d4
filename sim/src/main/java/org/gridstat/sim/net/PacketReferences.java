package org.gridstat.sim.net;

import org.gridstat.core.forward.EventReferences;

/** Counts the references the simulated routers hold to packets: what is still inside a router. */
public final class PacketReferences implements EventReferences<SimPacket> {
    private long live;

    @Override
    public void retain(SimPacket e) {
        e.references++;
        live++;
    }

    @Override
    public void release(SimPacket e) {
        if (e.references <= 0) {
            throw new IllegalStateException("a packet was released more often than retained");
        }
        e.references--;
        live--;
    }

    /** References held now, over every router. */
    public long live() {
        return live;
    }
}
