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
import org.gridstat.core.management.ErrorDocument;
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
    private static final Logger LOG = LoggerFactory.getLogger(ManagementApi.class);

    private final Routes routes;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2,
            new DefaultThreadFactory("gridstat-broker-api", true), NioIoHandler.newFactory());
    private final Channel server;

    /** What the server answers: a request's method, path and body to a future answer. */
    @FunctionalInterface
    public interface Routes {
        java.util.concurrent.CompletableFuture<ApiResponse> handle(String method, String path, byte[] body);
    }

    /** A leaf broker replica's API. */
    public ManagementApi(InetSocketAddress bind, BrokerReplica replica) {
        this(bind, new ManagementRoutes(replica)::handle);
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

    private final class Exchange extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (req.decoderResult().isFailure()) {
                send(ctx, new ApiResponse(400, new ErrorDocument("malformed HTTP request: " + req.decoderResult().cause())),
                        false);
                return;
            }
            String path = new QueryStringDecoder(req.uri()).path();
            byte[] body = ByteBufUtil.getBytes(req.content());
            ctx.channel().config().setAutoRead(false); // answer before reading the next request
            routes.handle(req.method().name(), path, body).whenComplete((r, e) -> ctx.executor().execute(() -> {
                send(ctx, e == null ? r : ApiResponse.error(500, "internal error: " + e), keepAlive);
                ctx.channel().config().setAutoRead(true);
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
