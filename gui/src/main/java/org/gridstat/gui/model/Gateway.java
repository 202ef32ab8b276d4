package org.gridstat.gui.model;

import java.util.List;

/** A phasor gateway's latest device report: how old, whether it has fallen silent ({@code stale}), its devices. */
public record Gateway(String gateway, String receivedAt, long reportAgeMs, long periodMs, boolean stale,
                      List<Device> devices) {
    public Gateway {
        devices = List.copyOf(devices);
    }
}
