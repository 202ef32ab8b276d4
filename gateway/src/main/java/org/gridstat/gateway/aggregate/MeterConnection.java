package org.gridstat.gateway.aggregate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;
import org.gridstat.core.sched.TokenBucket;

/**
 * One meter's TCP connection, run by one event loop: bytes through the decoder, hello to the
 * aggregator's registry, readings into the aggregator. What it holds is bounded: the decoder's
 * buffer, and while paused the one read it had not finished (at most {@code readBufferBytes}).
 * A connection over its allowance is paused with reading off and resumed by its loop's
 * {@link LoopSweep} once the allowance refills; the meter meanwhile waits on TCP.
 */
final class MeterConnection extends ChannelInboundHandlerAdapter {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final MeterServer server;
    private final MeterServerSettings settings;
    private final MeterCounters counters;
    private final MeterDecoder decoder;
    /** Records a second and their burst: exhausted, the connection is paused (the burst's last record may leave in debt). */
    private final TokenBucket allowance;
    private final long openedNanos;
    private Channel channel;
    private LoopSweep sweep;
    /** This connection's place in its sweep's list, for removal in O(1). */
    int sweepIndex = -1;
    private RegionAggregator.Meter meter;
    private long lastReadNanos;
    private long skippedCounted;
    /** Bytes read but not yet decoded: only while paused, or on the way to it. */
    private ByteBuf pending;
    private boolean paused;
    private boolean closing;

    MeterConnection(MeterServer server, long nowNanos) {
        this.server = server;
        this.settings = server.settings();
        this.counters = server.counters();
        this.decoder = new MeterDecoder(settings.aheadWindow().toNanos(), settings.behindWindow().toNanos());
        this.allowance = new TokenBucket(settings.readingsPerSecond(), settings.burst() - 1, nowNanos);
        this.openedNanos = nowNanos;
        this.lastReadNanos = nowNanos;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        sweep = server.sweep(channel.eventLoop());
        sweep.add(this);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf b = (ByteBuf) msg;
        lastReadNanos = server.mono().nanoTime();
        if (closing) {
            b.release();
            return;
        }
        if (pending != null) {
            // a read already under way when the connection was paused: keep it, within the bound
            int held = pending.readableBytes() + b.readableBytes();
            if (held > 2 * settings.readBufferBytes()) {
                b.release();
                close(MeterCounter.CLOSED_OVERFLOW);
                return;
            }
            ByteBuf joined = Unpooled.buffer(held, held).writeBytes(pending).writeBytes(b);
            pending.release();
            b.release();
            pending = joined;
            return;
        }
        pending = b;
        if (!paused) {
            drain();
        }
    }

    /** Decodes while the allowance lasts; pauses the connection when it runs out with bytes left. */
    void drain() {
        ByteBuffer in = pending == null ? EMPTY : pending.nioBuffer();
        int start = in.position();
        boolean stop = false;
        while (!closing) {
            long now = server.mono().nanoTime();
            if (exhausted(now)) {
                stop = in.hasRemaining() || decoder.buffered() >= MeterFormat.HELLO_LENGTH;
                break;
            }
            DecodeOutcome o = decoder.next(in, server.epoch().nanos());
            long skipped = decoder.bytesSkipped();
            counters.add(MeterCounter.BYTES_SKIPPED, skipped - skippedCounted);
            skippedCounted = skipped;
            if (skipped > settings.maxGarbageBytes()) {
                close(MeterCounter.CLOSED_GARBAGE);
                break;
            }
            if (o == DecodeOutcome.NEED_MORE) {
                break;
            }
            allowance.charge(1);
            handle(o);
        }
        if (pending != null) {
            pending.skipBytes(in.position() - start);
            if (!pending.isReadable() || closing) {
                pending.release();
                pending = null;
            }
        }
        if (closing) {
            return;
        }
        if (stop && !paused) {
            paused = true;
            channel.config().setAutoRead(false);
            sweep.paused(this);
            counters.add(MeterCounter.PAUSES);
        } else if (!stop && paused) {
            paused = false;
            channel.config().setAutoRead(true);
            counters.add(MeterCounter.RESUMES);
        }
    }

    private void handle(DecodeOutcome o) {
        switch (o) {
            case HELLO -> hello();
            case READING -> {
                if (meter == null) {
                    counters.add(MeterCounter.READINGS_BEFORE_HELLO);
                } else {
                    counters.offered(server.offer(meter, decoder));
                }
            }
            default -> counters.reject(o);
        }
    }

    private void hello() {
        if (meter != null) {
            if (meter.id() == decoder.meterId() && meter.regionId() == decoder.regionId()) {
                counters.add(MeterCounter.HELLOS_REPEATED);
            } else {
                close(MeterCounter.CLOSED_HELLO_CHANGED);
            }
            return;
        }
        RegionAggregator.Registration r = server.register(decoder.meterId(), decoder.regionId());
        if (r.meter() == null) {
            close(MeterCounter.CLOSED_HELLO_REFUSED);
            return;
        }
        meter = r.meter();
        counters.add(MeterCounter.HELLOS);
    }

    /** Called by the sweep, on this connection's loop: resumes once the allowance has refilled. */
    boolean resumeIfAllowed(long nowNanos) {
        if (closing) {
            return true;
        }
        if (exhausted(nowNanos)) {
            return false;
        }
        drain();
        return !paused;
    }

    /** Called by the sweep, on this connection's loop: closes it past its hello or idle deadline. */
    void checkTimeouts(long nowNanos) {
        if (closing) {
            return;
        }
        if (meter == null && nowNanos - openedNanos >= settings.helloTimeout().toNanos()) {
            close(MeterCounter.CLOSED_HELLO_TIMEOUT);
        } else if (!paused && nowNanos - lastReadNanos >= settings.idleTimeout().toNanos()) {
            close(MeterCounter.CLOSED_IDLE);
        }
    }

    private void close(MeterCounter why) {
        if (!closing) {
            closing = true;
            counters.add(why);
            channel.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        if (sweep != null) {
            sweep.remove(this);
        }
        counters.add(MeterCounter.BYTES_UNREAD_AT_CLOSE,
                decoder.buffered() + (pending == null ? 0 : pending.readableBytes()));
        if (pending != null) {
            pending.release();
            pending = null;
        }
        if (meter != null) {
            server.disconnected(meter);
        }
        server.connectionClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // a reset by the meter, mostly; the connection ends and channelInactive accounts for it
        MeterServer.LOG.debug("meter connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /** Whether a record must wait: the allowance, refilled for the time elapsed, is in debt. */
    private boolean exhausted(long nowNanos) {
        allowance.advance(nowNanos);
        return allowance.inDebt();
    }
}
