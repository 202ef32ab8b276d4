package org.gridstat.gateway.shaping;

/**
 * How a gateway shapes each flow it sends into the network.
 *
 * @param enabled       off: samples leave as they come (the routers' reservations still hold them)
 * @param burstFrames   the bucket's depth, in the flow's frames: how many back-to-back samples
 *                      leave at once after a quiet spell (jitter, a PDC's backlog)
 * @param queuePackets  IP packets a flow may have waiting for tokens; beyond that a sample is
 *                      dropped whole (counted), never queued in part
 * @param mtu           the path's IP MTU in bytes: a datagram larger than it travels as several packets
 */
public record ShapingSettings(boolean enabled, int burstFrames, int queuePackets, int mtu) {
    public static final ShapingSettings DEFAULT = new ShapingSettings(true, 2, 32, 1500);
    public static final ShapingSettings OFF = new ShapingSettings(false, 2, 32, 1500);

    public ShapingSettings {
        if (burstFrames < 1 || burstFrames > 1000) {
            throw new IllegalArgumentException("a burst of 1 to 1000 frames, not " + burstFrames);
        }
        if (queuePackets < 1 || queuePackets > 65_536) {
            throw new IllegalArgumentException("a queue of 1 to 65536 packets, not " + queuePackets);
        }
        if (mtu < 576 || mtu > 65_535) {
            throw new IllegalArgumentException("an MTU of 576 to 65535 bytes, not " + mtu);
        }
    }
}
