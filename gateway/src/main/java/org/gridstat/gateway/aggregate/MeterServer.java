package org.gridstat.gateway.aggregate;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Terminates many low-rate meter connections (the compact meter format over TCP) and folds their
 * readings into one aggregate per region and interval, handed to an {@link AggregateSink} (in a
 * gateway, {@link PublishingSink}: one status variable per region).
 *
 * <p>Bounded everywhere: at most {@code maxConnections} connections; per connection the decoder's
 * buffer and at most one unfinished read; a connection over its allowance is paused, not buffered;
 * one sending garbage past the bound, or nothing past the timeouts, is closed. The aggregator is
 * called inline under one lock, so it cannot fall behind the connections: the only queue is TCP's.
 * Every drop and close is counted ({@link MeterCounter}).
 *
 * <p>The event loops are the server's own ({@code ioThreads}); the aggregator's intervals are
 * closed by a tick on the first of them. Timeouts and allowances run on the monotonic clock, the
 * time window and intervals on the epoch clock: both are given, so tests run on a manual clock.
 */
public final class MeterServer implements AutoCloseable {
    static final Logger LOG = LoggerFactory.getLogger(MeterServer.class);
    private static final long POLL_MILLIS = 20;

    /** The aggregator's figures, read under its lock. */
    public record AggregatorStatus(int meters, int regions, long emitted, long intervalsClosed, long intervalsSkipped,
                                   long metersForgotten, Map<HelloRefusal, Long> helloRefusals) {
    }

    private final MeterServerSettings settings;
    private final Clock epoch;
    private final NanoClock mono;
    private final MeterCounters counters = new MeterCounters();
    private final RegionAggregator aggregator;
    private final EventLoopGroup group;
    private final Map<EventLoop, LoopSweep> sweeps = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private Channel listener;
    private ScheduledFuture<?> poller;

    private MeterServer(MeterServerSettings settings, AggregateSink sink, Clock epoch, NanoClock mono) {
        this.settings = settings;
        this.epoch = epoch;
        this.mono = mono;
        this.aggregator = new RegionAggregator(settings.aggregator(), sink, epoch.nanos());
        this.group = new MultiThreadIoEventLoopGroup(settings.ioThreads(), new DefaultThreadFactory("meter-server", true),
                Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /**
     * Listens for meters.
     *
     * @throws UncheckedIOException when the address cannot be bound, naming it
     */
    public static MeterServer start(MeterServerSettings settings, AggregateSink sink, Clock epoch, NanoClock mono) {
        MeterServer s = new MeterServer(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(sink, "sink"),
                Objects.requireNonNull(epoch, "epoch clock"), Objects.requireNonNull(mono, "monotonic clock"));
        try {
            s.bind();
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    // RCVBUF_ALLOCATOR is deprecated in Netty 4.2 with no replacement for this use yet: a fixed
    // allocator is what bounds a single read, and so what a paused connection holds
    @SuppressWarnings("deprecation")
    private void bind() {
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4_096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(settings.readBufferBytes()))
                .childOption(ChannelOption.SO_RCVBUF, settings.socketBufferBytes())
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accept(ch);
                    }
                });
        ChannelFuture f = b.bind(settings.listen()).awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new UncheckedIOException(new BindException("cannot bind the meter server on " + settings.listen() + ": "
                    + f.cause()));
        }
        listener = f.channel();
        poller = group.next().scheduleAtFixedRate(this::poll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("meters: listening on {}, at most {} connections, {} intervals", address(), settings.maxConnections(),
                settings.aggregator().interval());
    }

    private void accept(SocketChannel ch) {
        while (true) {
            int n = open.get();
            if (closed.get() || n >= settings.maxConnections()) {
                counters.add(MeterCounter.CONNECTIONS_REFUSED);
                ch.close();
                return;
            }
            if (open.compareAndSet(n, n + 1)) {
                break;
            }
        }
        counters.add(MeterCounter.CONNECTIONS_ACCEPTED);
        ch.pipeline().addLast(new MeterConnection(this, mono.nanoTime()));
    }

    private void poll() {
        try {
            synchronized (aggregator) {
                if (epoch.nanos() >= aggregator.nextDeadline()) {
                    aggregator.poll(epoch.nanos());
                }
            }
        } catch (RuntimeException e) {
            // a failing sink must not stop the intervals from closing
            LOG.error("meters: closing intervals failed", e);
        }
    }

    LoopSweep sweep(EventLoop loop) {
        return sweeps.computeIfAbsent(loop, l -> new LoopSweep(this, l));
    }

    RegionAggregator.Registration register(long meterId, int regionId) {
        synchronized (aggregator) {
            return aggregator.register(meterId, regionId, epoch.nanos());
        }
    }

    OfferOutcome offer(RegionAggregator.Meter meter, MeterDecoder reading) {
        synchronized (aggregator) {
            return aggregator.offer(meter, reading.timeNanos(), reading.quality(), reading.kinds(), reading.values());
        }
    }

    void disconnected(RegionAggregator.Meter meter) {
        synchronized (aggregator) {
            aggregator.disconnected(meter, epoch.nanos());
        }
    }

    void connectionClosed() {
        open.decrementAndGet();
        counters.add(MeterCounter.CONNECTIONS_CLOSED);
    }

    public MeterServerSettings settings() {
        return settings;
    }

    public MeterCounters counters() {
        return counters;
    }

    Clock epoch() {
        return epoch;
    }

    NanoClock mono() {
        return mono;
    }

    /** Connections open now. */
    public int connections() {
        return open.get();
    }

    public AggregatorStatus aggregatorStatus() {
        synchronized (aggregator) {
            Map<HelloRefusal, Long> refusals = new java.util.EnumMap<>(HelloRefusal.class);
            for (HelloRefusal r : HelloRefusal.values()) {
                refusals.put(r, aggregator.refusals(r));
            }
            return new AggregatorStatus(aggregator.meters(), aggregator.regions(), aggregator.emitted(),
                    aggregator.intervalsClosed(), aggregator.intervalsSkipped(), aggregator.metersForgotten(), refusals);
        }
    }

    /** The address meters connect to. */
    public InetSocketAddress address() {
        return listener == null ? null : (InetSocketAddress) listener.localAddress();
    }

    /**
     * Stops listening, closes every connection and emits the intervals still open, flagged as
     * closed early. Idempotent; not to be called from the server's own threads.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (poller != null) {
            poller.cancel(false);
        }
        if (listener != null) {
            listener.close().awaitUninterruptibly();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        synchronized (aggregator) {
            aggregator.closeAll(epoch.nanos());
        }
        LOG.info("meters: closed; {}", counters.snapshot());
    }
}
