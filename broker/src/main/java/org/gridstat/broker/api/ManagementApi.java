package org.gridstat.broker.api;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
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
import org.gridstat.broker.BrokerReplica;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's management API over HTTP/1.1 with JSON bodies. Requests larger than
 * {@link #MAX_BODY_BYTES} are answered 413, malformed ones 400, and a connection idle for
 * {@link #IDLE_SECONDS} is closed; one client's mistakes never reach another. Requests on one
 * connection are answered in order, one at a time.
 */
public final class ManagementApi implements AutoCloseable {
    public static final int MAX_BODY_BYTES = 64 * 1024;
    public static final int IDLE_SECONDS = 60;
    /** The header a client names a mutating request by, so that a repeat is made once. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final Logger LOG = LoggerFactory.getLogger(ManagementApi.class);

    private final Routes routes;
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
        this(bind, new ManagementRoutes(replica));
    }

    public ManagementApi(InetSocketAddress bind, Routes routes) {
        this.routes = routes;
        try {
            this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new ReadTimeoutHandler(IDLE_SECONDS))
                                    .addLast(new HttpServerCodec(4096, 8192, 8192))
                                    .addLast(new HttpObjectAggregator(MAX_BODY_BYTES))
                                    .addLast(new Exchange());
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

    /** What the exchange needs of a request, copied out so the request's buffer is released at once. */
    private record Request(String method, String uri, byte[] body, String idempotencyKey, boolean keepAlive,
                           String malformed) {
    }

    /**
     * One per connection. HTTP/1.1 clients may send requests before earlier ones are answered;
     * they queue here (at most {@link #MAX_QUEUED}, then the connection is closed) and are answered
     * one at a time, in order.
     */
    private final class Exchange extends SimpleChannelInboundHandler<FullHttpRequest> {
        private static final int MAX_QUEUED = 16;
        private final java.util.ArrayDeque<Request> queued = new java.util.ArrayDeque<>();
        private boolean busy;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String malformed = req.decoderResult().isFailure() ? String.valueOf(req.decoderResult().cause()) : null;
            queued.add(new Request(req.method().name(), req.uri(), ByteBufUtil.getBytes(req.content()),
                    req.headers().get(IDEMPOTENCY_KEY), malformed == null && HttpUtil.isKeepAlive(req), malformed));
            if (queued.size() > MAX_QUEUED) {
                LOG.debug("management client {} queued more than {} requests; closing", ctx.channel().remoteAddress(), MAX_QUEUED);
                ctx.close();
                return;
            }
            next(ctx);
        }

        /** Starts the oldest queued request unless one is being answered. Event loop only. */
        private void next(ChannelHandlerContext ctx) {
            if (busy || queued.isEmpty() || !ctx.channel().isActive()) {
                return;
            }
            Request r = queued.poll();
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
            routes.handle(r.method(), path, r.body(), r.idempotencyKey()).whenComplete((answer, e) -> ctx.executor().execute(() -> {
                busy = false;
                send(ctx, e == null ? answer : ApiResponse.error(500, "internal error: " + e), r.keepAlive());
                if (r.keepAlive()) {
                    next(ctx);
                }
            }));
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

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
