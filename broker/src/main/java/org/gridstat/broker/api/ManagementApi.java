package org.gridstat.broker.api;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.core.time.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's management API over HTTP/1.1 with JSON bodies. Requests larger than
 * {@link #MAX_BODY_BYTES} are answered 413, malformed ones 400, and a connection idle for
 * {@link #IDLE_SECONDS} is closed; one client's mistakes never reach another. Requests on one
 * connection are answered in order, one at a time. The limits of {@link ApiLimits} keep it
 * answering under floods: connections are capped (the longest-idle one makes room for a new one),
 * a request must arrive whole within a deadline of its first byte (else 408), and requests
 * pipelined beyond {@value Exchange#MAX_QUEUED} on one connection are answered 503.
 *
 * <p>{@code GET /api/v1/events} turns its connection into an event stream ({@link EventStream})
 * for as long as the console reads it. The limits of a request and its answer are lifted from
 * such a connection deliberately: the idle timeout (a console sends nothing after its request,
 * and its stream must not end after {@value #IDLE_SECONDS} s), the request deadline (no request
 * follows; requests pipelined behind it are not answered) and displacement at the connection cap
 * (a stream is an answer in progress; the streams have their own cap). Instead the
 * {@link EventStreamSettings} bound them: how many, and how long one may go unread.
 */
public final class ManagementApi implements AutoCloseable {
    public static final int MAX_BODY_BYTES = 64 * 1024;
    public static final int IDLE_SECONDS = 60;
    /** The header a client names a mutating request by, so that a repeat is made once. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final Logger LOG = LoggerFactory.getLogger(ManagementApi.class);

    private final Routes routes;
    private final ApiLimits limits;
    private final ConnectionCap cap;
    private final EventStreams streams;
    private final AtomicLong requestTimeouts = new AtomicLong();
    private final AtomicLong pipelineRefusals = new AtomicLong();
    private final AtomicLong refusedLoggedAt = new AtomicLong(Long.MIN_VALUE);
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2,
            new DefaultThreadFactory("gridstat-broker-api", true), NioIoHandler.newFactory());
    private final Channel server;

    /** What the server answers: a request's method, path and body to a future answer. */
    @FunctionalInterface
    public interface Routes {
        java.util.concurrent.CompletableFuture<ApiResponse> handle(String method, String path, byte[] body);

        /** The same with the request's {@code Idempotency-Key} header ({@code null} if none); ignored by default. */
        default java.util.concurrent.CompletableFuture<ApiResponse> handle(String method, String path, byte[] body,
                                                                           String idempotencyKey) {
            return handle(method, path, body);
        }
    }

    /** A leaf broker replica's API. */
    public ManagementApi(InetSocketAddress bind, BrokerReplica replica) {
        this(bind, replica, ApiLimits.DEFAULT);
    }

    public ManagementApi(InetSocketAddress bind, BrokerReplica replica, ApiLimits limits) {
        this(bind, new ManagementRoutes(replica), limits);
    }

    public ManagementApi(InetSocketAddress bind, Routes routes) {
        this(bind, routes, ApiLimits.DEFAULT);
    }

    public ManagementApi(InetSocketAddress bind, Routes routes, ApiLimits limits) {
        this.routes = routes;
        this.limits = limits;
        this.cap = new ConnectionCap(limits.maxConnections(), SystemNanoClock.INSTANCE);
        this.streams = new EventStreams(routes, limits.events(), SystemNanoClock.INSTANCE);
        try {
            this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ConnectionCap.Slot slot = cap.admit(ch::close);
                            if (slot == null) {
                                ch.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192)).addLast(new AtCap());
                                return;
                            }
                            ch.closeFuture().addListener(f -> slot.release());
                            Exchange exchange = new Exchange(slot);
                            ch.pipeline().addLast(new ReadTimeoutHandler(IDLE_SECONDS))
                                    .addLast(exchange.deadline)
                                    .addLast(new HttpServerCodec(4096, 8192, 8192))
                                    .addLast(new HttpObjectAggregator(MAX_BODY_BYTES))
                                    .addLast(exchange);
                        }
                    })
                    .bind(bind).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalStateException("cannot open the management API on " + bind + ": " + e.getMessage(), e);
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** What the limits have done so far, and the connections open now. */
    public record Counters(int connections, long displacedAtCap, long refusedAtCap, long requestTimeouts,
                           long pipelineRefusals) {
    }

    public Counters counters() {
        return new Counters(cap.open(), cap.displaced(), cap.refused(), requestTimeouts.get(), pipelineRefusals.get());
    }

    /**
     * What the event streams have done so far: {@code open} now, {@code refusedAtCap} answered 503
     * at the stream cap, {@code closedUnwritable} closed after taking nothing for longer than
     * allowed, {@code closedUnanswered} closed because the resources were refused (the replica
     * lost the lead), {@code skippedPulses} pulses that found a stream's connection unwritable, and
     * {@code largestBacklogBytes} the most bytes a pulse found waiting in a stream's connection.
     */
    public record StreamCounters(int open, long refusedAtCap, long closedUnwritable, long closedUnanswered,
                                 long skippedPulses, long largestBacklogBytes) {
    }

    public StreamCounters streamCounters() {
        return streams.counters();
    }

    private static FullHttpResponse closing(HttpResponseStatus status, String error) {
        byte[] bytes;
        try {
            bytes = ManagementRoutes.JSON.writeValueAsBytes(java.util.Map.of("error", error));
        } catch (Exception e) {
            bytes = new byte[0];
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        HttpUtil.setContentLength(res, bytes.length);
        return res;
    }

    /** A connection beyond the cap, every other one with a request in progress: 503 at once, then closed. */
    private final class AtCap extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            long now = System.nanoTime();
            long last = refusedLoggedAt.get();
            if ((last == Long.MIN_VALUE || now - last > 10_000_000_000L) && refusedLoggedAt.compareAndSet(last, now)) {
                LOG.warn("management API at its cap of {} connections, each with a request in progress: refusing new"
                        + " ones with 503 ({} so far)", limits.maxConnections(), cap.refused());
            }
            ctx.writeAndFlush(closing(HttpResponseStatus.SERVICE_UNAVAILABLE, "the broker has "
                    + limits.maxConnections() + " connections with requests in progress; retry later"))
                    .addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }
    /**
     * What the exchange needs of a request, copied out so the request's buffer is released at once;
     * {@code refused}: pipelined beyond the queue, answered 503 in its turn.
     */
    private record Request(String method, String uri, byte[] body, String idempotencyKey, boolean keepAlive,
                           String malformed, boolean refused) {
    }

    /**
     * One per connection. HTTP/1.1 clients may send requests before earlier ones are answered;
     * they queue here and are answered one at a time, in order: at most {@link #MAX_QUEUED} with
     * their bodies, those beyond as bare 503 answers in their turn, and beyond {@link #MAX_REFUSED}
     * of those the connection is not read until the queue drains (TCP holds the client back).
     */
    private final class Exchange extends SimpleChannelInboundHandler<FullHttpRequest> {
        static final int MAX_QUEUED = 16;
        static final int MAX_REFUSED = 64;
        private final java.util.ArrayDeque<Request> queued = new java.util.ArrayDeque<>();
        private final ConnectionCap.Slot slot;
        /** Ahead of the HTTP decoder: times each request from its first byte. */
        final RequestDeadline deadline = new RequestDeadline();
        private boolean busy;

        Exchange(ConnectionCap.Slot slot) {
            this.slot = slot;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            deadline.complete();
            String malformed = req.decoderResult().isFailure() ? String.valueOf(req.decoderResult().cause()) : null;
            boolean keepAlive = malformed == null && HttpUtil.isKeepAlive(req);
            if (queued.size() >= MAX_QUEUED) {
                pipelineRefusals.incrementAndGet();
                queued.add(new Request(req.method().name(), req.uri(), null, null, keepAlive, malformed, true));
                if (queued.size() >= MAX_QUEUED + MAX_REFUSED) {
                    ctx.channel().config().setAutoRead(false);
                }
            } else {
                queued.add(new Request(req.method().name(), req.uri(), ByteBufUtil.getBytes(req.content()),
                        req.headers().get(IDEMPOTENCY_KEY), keepAlive,
                        malformed, false));
            }
            next(ctx);
        }

        /** Whether a request is being received, queued or answered: then the connection is not idle. */
        private void updateSlot() {
            slot.state(busy || !queued.isEmpty(), deadline.running());
        }

        /**
         * Starts a timer at a request's first byte that the complete request stops; if it runs out,
         * the client is answered 408 (if no earlier answer is pending) and the connection closed.
         * The idle timer alone would restart on each byte, keeping a client that sends one byte a
         * second forever.
         */
        final class RequestDeadline extends io.netty.channel.ChannelInboundHandlerAdapter {
            private java.util.concurrent.ScheduledFuture<?> timer;

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (timer == null && msg instanceof io.netty.buffer.ByteBuf b && b.isReadable()) {
                    timer = ctx.executor().schedule(() -> expired(ctx), limits.requestDeadlineNanos(), TimeUnit.NANOSECONDS);
                }
                slot.active();
                updateSlot();
                ctx.fireChannelRead(msg);
            }

            boolean running() {
                return timer != null;
            }

            void complete() {
                if (timer != null) {
                    timer.cancel(false);
                    timer = null;
                }
            }

            private void expired(ChannelHandlerContext ctx) {
                timer = null;
                requestTimeouts.incrementAndGet();
                LOG.debug("management client {} did not complete a request within {} ms; closing",
                        ctx.channel().remoteAddress(), limits.requestDeadlineNanos() / 1_000_000);
                if (busy || !queued.isEmpty()) {
                    ctx.close(); // an answer is still due first: a 408 now would be taken for it
                    return;
                }
                ctx.channel().writeAndFlush(closing(HttpResponseStatus.REQUEST_TIMEOUT, "the request was not complete within "
                        + limits.requestDeadlineNanos() / 1_000_000 + " ms of its first byte"))
                        .addListener(ChannelFutureListener.CLOSE);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                complete();
                ctx.fireChannelInactive();
            }
        }

        /** Starts the oldest queued request unless one is being answered. Event loop only. */
        private void next(ChannelHandlerContext ctx) {
            if (busy || queued.isEmpty() || !ctx.channel().isActive()) {
                updateSlot();
                return;
            }
            Request r = queued.poll();
            if (queued.size() < MAX_QUEUED && !ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(true);
            }
            if (r.refused()) {
                send(ctx, ApiResponse.error(503, "more than " + MAX_QUEUED
                        + " requests pipelined on one connection; send fewer before reading the answers"), r.keepAlive());
                next(ctx);
                return;
            }
            if (r.malformed() != null) {
                send(ctx, ApiResponse.error(400, "malformed HTTP request: " + r.malformed()), false);
                return;
            }
            String path;
            try {
                path = new QueryStringDecoder(r.uri()).path();
            } catch (IllegalArgumentException e) {
                send(ctx, ApiResponse.error(400, "malformed request URI: " + e.getMessage()), r.keepAlive());
                next(ctx);
                return;
            }
            busy = true;
            updateSlot();
            routes.handle(r.method(), path, r.body(), r.idempotencyKey()).whenComplete((answer, e) -> ctx.executor().execute(() -> {
                busy = false;
                if (e == null && answer.body() instanceof EventStreams.Accepted) {
                    stream(ctx);
                    return;
                }
                send(ctx, e == null ? answer : ApiResponse.error(500, "internal error: " + e), r.keepAlive());
                if (r.keepAlive()) {
                    next(ctx);
                }
                updateSlot();
            }));
        }

        /**
         * Hands the connection to an event stream, or answers why not and closes it. From here the
         * connection carries the stream alone: the HTTP handlers, the idle timeout and the request
         * deadline leave the pipeline, and the connection cap no longer displaces it.
         */
        private void stream(ChannelHandlerContext ctx) {
            if (!ctx.channel().isActive()) {
                return; // the console left before its answer: its pipeline is gone with it
            }
            busy = true; // nothing else is answered on this connection while its snapshot is taken
            updateSlot();
            // the snapshot is taken off the event loop; the stream begins back on it
            streams.open(ctx.channel()).whenComplete((opened, e) -> ctx.executor().execute(() -> begin(ctx, opened, e)));
        }

        private void begin(ChannelHandlerContext ctx, EventStreams.Opened opened, Throwable failed) {
            if (failed != null || opened.refusal() != null) {
                send(ctx, failed != null ? ApiResponse.error(500, "internal error: " + failed) : opened.refusal(), false);
                return;
            }
            if (!ctx.channel().isActive()) {
                return; // the console left while its snapshot was taken: the stream is released with the connection
            }
            ChannelPipeline p = ctx.pipeline();
            p.addLast(opened.stream()); // first, so that bytes the decoder still holds are dropped by it
            p.remove(ReadTimeoutHandler.class);
            p.remove(deadline);
            p.remove(HttpObjectAggregator.class);
            p.remove(HttpServerCodec.class);
            p.remove(this);
            queued.clear();
            busy = true;
            slot.state(true, false);
            opened.stream().start();
        }

        private void send(ChannelHandlerContext ctx, ApiResponse r, boolean keepAlive) {
            byte[] bytes;
            String type;
            if (r.body() == null) {
                bytes = new byte[0];
                type = null;
            } else if (r.body() instanceof String text) {
                bytes = text.getBytes(StandardCharsets.UTF_8);
                type = "application/yaml";
            } else {
                try {
                    bytes = ManagementRoutes.JSON.writeValueAsBytes(r.body());
                } catch (Exception e) {
                    bytes = ("{\"error\":\"cannot encode the answer\"}").getBytes(StandardCharsets.UTF_8);
                    r = new ApiResponse(500, null);
                }
                type = "application/json";
            }
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
                    Unpooled.wrappedBuffer(bytes));
            if (type != null) {
                res.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
            }
            HttpUtil.setContentLength(res, bytes.length);
            slot.active();
            if (keepAlive) {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                ctx.writeAndFlush(res);
            } else {
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("management client {}: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }

    /** Closes the event streams and every connection; the port is released. */
    @Override
    public void close() {
        streams.close();
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
