package org.gridstat.gateway.aggregate;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Simulated meters: N connections on a few Netty threads (not a thread per meter), each saying
 * hello and then sending readings, either one round at a time at a given time (tests, on a manual
 * clock) or paced in real time at a rate for a bounded duration (the benchmark). Meter i has id
 * {@code firstId + i}, region {@code i % regions} and values derived from its id
 * ({@link #activePower} and the others), so the aggregates can be checked.
 *
 * <p>{@code main(host, port, connections, regions, seconds, ratePerSecond, threads)} runs a load
 * and prints what it sent; it only ever connects to the address given (loopback in our runs).
 */
final class MeterLoad implements AutoCloseable {
    private static final int CONNECTS_IN_FLIGHT = 256;

    private final InetSocketAddress server;
    private final int connections;
    private final int regions;
    private final long firstId;
    private final EventLoopGroup group;
    private final List<Channel> channels = new ArrayList<>();
    private final Map<EventLoop, List<Integer>> byLoop = new LinkedHashMap<>();
    private final AtomicLong attempted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final ChannelFutureListener countFailures = f -> {
        if (!f.isSuccess()) {
            failed.incrementAndGet();
        }
    };

    MeterLoad(InetSocketAddress server, int connections, int regions, long firstId, int threads) {
        this.server = server;
        this.connections = connections;
        this.regions = regions;
        this.firstId = firstId;
        this.group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("meter-load", true),
                Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    static float activePower(long id) {
        return id % 1000;
    }

    static float reactivePower(long id) {
        return -(id % 100);
    }

    static float voltage(long id) {
        return 230f + (id % 10);
    }

    long meterId(int i) {
        return firstId + i;
    }

    int region(int i) {
        return i % regions;
    }

    /** Opens every connection, each sending its hello; returns how many are established. */
    int connect(Duration timeout) throws InterruptedException {
        Bootstrap b = new Bootstrap().group(group)
                .channel(Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ReferenceCountUtil.release(msg); // the server sends nothing; ignore anything
                            }
                        });
                    }
                });
        Semaphore inFlight = new Semaphore(CONNECTS_IN_FLIGHT);
        List<ChannelFuture> futures = new ArrayList<>(connections);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int i = 0; i < connections; i++) {
            if (!inFlight.tryAcquire(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                break;
            }
            int meter = i;
            ChannelFuture f = b.connect(server);
            f.addListener(done -> {
                inFlight.release();
                if (done.isSuccess()) {
                    Channel ch = ((ChannelFuture) done).channel();
                    ch.writeAndFlush(ch.alloc().buffer(MeterFormat.HELLO_LENGTH)
                            .writeBytes(MeterFormat.hello((int) meterId(meter), region(meter))));
                }
            });
            futures.add(f);
        }
        int established = 0;
        for (int i = 0; i < futures.size(); i++) {
            ChannelFuture f = futures.get(i);
            f.awaitUninterruptibly(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (f.isSuccess()) {
                established++;
                channels.add(f.channel());
                byLoop.computeIfAbsent(f.channel().eventLoop(), l -> new ArrayList<>()).add(i);
            } else {
                channels.add(null);
            }
        }
        return established;
    }

    /** One reading on every open connection, stamped {@code timeMicros}; returns once they are queued. */
    void round(long timeMicros) throws InterruptedException {
        List<io.netty.util.concurrent.Future<?>> done = new ArrayList<>();
        for (Map.Entry<EventLoop, List<Integer>> e : byLoop.entrySet()) {
            done.add(e.getKey().submit(() -> {
                CRC32C crc = new CRC32C();
                for (int i : e.getValue()) {
                    send(i, timeMicros, crc);
                }
            }));
        }
        for (io.netty.util.concurrent.Future<?> f : done) {
            f.sync();
        }
    }

    private void send(int i, long timeMicros, CRC32C crc) {
        Channel ch = channels.get(i);
        if (ch == null || !ch.isActive()) {
            return;
        }
        long id = meterId(i);
        ByteBuf buf = ch.alloc().buffer(MeterFormat.READING_LENGTH);
        ByteBuffer nio = buf.nioBuffer(0, MeterFormat.READING_LENGTH);
        MeterFormat.writeReading(nio, timeMicros, 0, ValueKind.KNOWN_MASK, activePower(id), reactivePower(id), voltage(id), crc);
        buf.writerIndex(MeterFormat.READING_LENGTH);
        attempted.incrementAndGet();
        ch.writeAndFlush(buf).addListener(countFailures);
    }

    /**
     * Sends in real time for {@code duration}: every connection {@code ratePerSecond} readings a
     * second, the connections spread evenly over each period, each reading stamped with its
     * scheduled time so a meter's readings are exactly one period apart.
     */
    void run(Duration duration, double ratePerSecond) throws InterruptedException {
        long periodMicros = Math.round(1e6 / ratePerSecond);
        long startMicros = (System.currentTimeMillis() / 1000 + 1) * 1_000_000; // on the next whole second
        long endMicros = startMicros + duration.toNanos() / 1000;
        List<io.netty.util.concurrent.ScheduledFuture<?>> tasks = new ArrayList<>();
        for (Map.Entry<EventLoop, List<Integer>> e : byLoop.entrySet()) {
            List<Integer> mine = e.getValue();
            long[] next = new long[mine.size()];
            for (int k = 0; k < mine.size(); k++) {
                // phase: meter i's place in the period; readings start a period into the run
                next[k] = startMicros + (long) mine.get(k) * periodMicros / connections;
            }
            CRC32C crc = new CRC32C();
            tasks.add(e.getKey().scheduleAtFixedRate(() -> {
                long now = System.currentTimeMillis() * 1000;
                for (int k = 0; k < mine.size(); k++) {
                    while (next[k] <= now && next[k] < endMicros) {
                        send(mine.get(k), next[k], crc);
                        next[k] += periodMicros;
                    }
                }
            }, 5, 5, TimeUnit.MILLISECONDS));
        }
        long waitMillis = endMicros / 1000 - System.currentTimeMillis() + 100;
        Thread.sleep(Math.max(0, waitMillis));
        for (io.netty.util.concurrent.ScheduledFuture<?> t : tasks) {
            t.cancel(false);
        }
        // let the last writes finish
        for (EventLoop l : byLoop.keySet()) {
            l.submit(() -> { }).sync();
        }
    }

    /** Readings handed to a connection and not reported failed. */
    long sent() {
        return attempted.get() - failed.get();
    }

    long failed() {
        return failed.get();
    }

    int open() {
        int n = 0;
        for (Channel ch : channels) {
            if (ch != null && ch.isActive()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        for (Channel ch : channels) {
            if (ch != null) {
                ch.close();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress at = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        if (!at.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("the load only goes to a loopback address: " + at);
        }
        int n = Integer.parseInt(args[2]);
        int regions = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        double rate = Double.parseDouble(args[5]);
        int threads = Integer.parseInt(args[6]);
        try (MeterLoad load = new MeterLoad(at, n, regions, 1, threads)) {
            long t0 = System.nanoTime();
            int established = load.connect(Duration.ofSeconds(60));
            System.out.printf("meterload: connected=%d in %.1f s%n", established, (System.nanoTime() - t0) / 1e9);
            load.run(Duration.ofSeconds(seconds), rate);
            System.out.printf("meterload: sent=%d failed=%d open=%d%n", load.sent(), load.failed(), load.open());
        }
    }
}
