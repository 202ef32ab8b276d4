package org.gridstat.gateway.device;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.LongAdder;

/** A UDP peer, known by its address since its first valid command; forgotten when it goes quiet. */
final class UdpPeer implements CommandPeer {
    private final InetSocketAddress address;
    private final UdpEndpoint endpoint;
    private final RateLimitedWarning warnings = new RateLimitedWarning();
    private final LongAdder dataSent = new LongAdder();
    private final LongAdder dataDropped = new LongAdder();
    private volatile boolean dataOn;
    private volatile long lastHeardNanos;

    UdpPeer(InetSocketAddress address, UdpEndpoint endpoint, long nowNanos) {
        this.address = address;
        this.endpoint = endpoint;
        this.lastHeardNanos = nowNanos;
    }

    InetSocketAddress address() {
        return address;
    }

    void heard(long nowNanos) {
        lastHeardNanos = nowNanos;
    }

    long lastHeardNanos() {
        return lastHeardNanos;
    }

    boolean dataOn() {
        return dataOn;
    }

    @Override
    public void data(boolean on) {
        dataOn = on;
    }

    @Override
    public boolean answer(byte[] frame, LongAdder sent) {
        return endpoint.sendAnswer(frame, address, sent);
    }

    void countData(boolean sent) {
        (sent ? dataSent : dataDropped).increment();
    }

    @Override
    public int maxFrameSize() {
        return UdpEndpoint.MAX_DATAGRAM;
    }

    @Override
    public String describe() {
        return "udp " + address;
    }

    @Override
    public RateLimitedWarning warnings() {
        return warnings;
    }

    ServerCounters.ClientCounters counters() {
        return new ServerCounters.ClientCounters(address, "udp", dataOn, dataSent.sum(), dataDropped.sum(), 0, 0);
    }
}
