package org.gridstat.broker.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.gridstat.core.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One console's event stream, on a connection that carries nothing else once the stream has
 * begun: the answer's head, a {@code snapshot} event, then at each pulse one event per resource
 * that changed since this stream last sent it (its JSON differs, but for the devices' report ages,
 * {@link LiveViews}; the whole resource: the console replaces, it never merges), or a keepalive
 * comment if nothing was sent for a keepalive period.
 *
 * <p>A slow console never makes the broker queue: at a pulse that finds the connection unwritable
 * (Netty's buffer above its high-water mark) the stream sends nothing, and the next writable pulse
 * sends the latest JSON of what changed meanwhile; so at most one pulse's events wait beyond the
 * high-water mark, whatever the console does. Unwritable for longer than the settings allow, the
 * connection is closed. Every method runs on the connection's event loop.
 */
final class EventStream extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    /** The stream's length is unknown: the answer ends when the connection closes. */
    private static final byte[] HEAD = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            + "Cache-Control: no-cache\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final long NONE = Long.MIN_VALUE;

    private final Channel channel;
    private final EventStreamSettings settings;
    private final NanoClock clock;
    private final EventStreams owner;
    /** The identity of what this stream last sent of each resource: arrays shared with the pulses, never copied. */
    private final byte[][] sent = new byte[LiveViews.RESOURCES.size()][];
    private final LiveViews.Snapshot first;
    private long nextId = 1;
    private long lastWriteNanos;
    private long unwritableSinceNanos = NONE;
    private boolean started;

    EventStream(Channel channel, EventStreamSettings settings, NanoClock clock, EventStreams owner, LiveViews.Snapshot first) {
        this.channel = channel;
        this.settings = settings;
        this.clock = clock;
        this.owner = owner;
        this.first = first;
    }

    Channel channel() {
        return channel;
    }

    /** Sends the answer's head and the snapshot; the pulses send the rest. */
    void start() {
        channel.write(Unpooled.wrappedBuffer(HEAD));
        channel.write(event("snapshot", first.document()));
        System.arraycopy(first.identity(), 0, sent, 0, sent.length);
        channel.flush();
        lastWriteNanos = clock.nanoTime();
        started = true;
    }

    /** Sends what changed since this stream last sent it; see the class comment for a slow console. */
    void pulse(LiveViews.Snapshot now) {
        if (!started || !channel.isActive()) {
            return;
        }
        long t = clock.nanoTime();
        ChannelOutboundBuffer waiting = channel.unsafe().outboundBuffer();
        owner.backlog(waiting == null ? 0 : waiting.totalPendingWriteBytes());
        if (!channel.isWritable()) {
            owner.pulseSkipped();
            if (unwritableSinceNanos == NONE) {
                unwritableSinceNanos = t;
            } else if (t - unwritableSinceNanos > settings.unwritableCloseNanos()) {
                owner.closedUnwritable();
                LOG.info("event stream to {} took nothing for {} ms; closing it", channel.remoteAddress(),
                        (t - unwritableSinceNanos) / 1_000_000);
                channel.close();
            }
            return;
        }
        unwritableSinceNanos = NONE;
        boolean wrote = false;
        for (int i = 0; i < sent.length; i++) {
            byte[] identity = now.identity()[i];
            if (identity == sent[i]) {
                continue;
            }
            if (!Arrays.equals(identity, sent[i])) {
                channel.write(event(LiveViews.RESOURCES.get(i), now.json()[i]));
                wrote = true;
            }
            sent[i] = identity; // equal or sent: either way the pulses' array from now on
        }
        if (!wrote && t - lastWriteNanos >= settings.keepaliveNanos()) {
            channel.write(Unpooled.wrappedBuffer(KEEPALIVE));
            wrote = true;
        }
        if (wrote) {
            channel.flush();
            lastWriteNanos = t;
        }
    }

    /** {@code event: <name>}, {@code id: <n>}, {@code data: <json>}: JSON as Jackson writes it has no line break. */
    private ByteBuf event(String name, byte[] json) {
        byte[] head = ("event: " + name + "\nid: " + nextId++ + "\ndata: ").getBytes(StandardCharsets.US_ASCII);
        return Unpooled.wrappedBuffer(head, json, EVENT_END);
    }

    /** A console sends nothing after its request; whatever it sends is dropped. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("event stream to {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
