package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.CongestionNotice;
import org.junit.jupiter.api.Test;

/** A publisher's congestion-notice connection against a router played on a plain loopback socket. */
class NoticeClientTest {

    private static ControlMessage read(DataInputStream in) throws IOException {
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return ControlCodec.decode(ByteBuffer.wrap(body)).message();
    }

    @Test
    void aNoticeWhoseFrameStallsPastTheReadTimeoutArrivesWhole() throws Exception {
        BlockingQueue<CongestionNotice> notices = new ArrayBlockingQueue<>(8);
        try (ServerSocket router = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             NoticeClient client = new NoticeClient((InetSocketAddress) router.getLocalSocketAddress(), notices::add, () -> { })) {
            router.setSoTimeout(5_000);
            try (Socket s = router.accept()) {
                OutputStream out = s.getOutputStream();
                byte[] frame = ControlCodec.encode(1, new CongestionNotice(7, 20));
                out.write(frame, 0, 2); // half the length prefix, then a pause longer than the client's read timeout
                out.flush();
                Thread.sleep(NoticeClient.HEARTBEAT_MS + 300);
                out.write(frame, 2, frame.length - 2);
                out.flush();
                assertEquals(new CongestionNotice(7, 20), notices.poll(5, TimeUnit.SECONDS), "the notice was lost");
            }
        }
    }

    @Test
    void aPublisherSendsHeartbeatsEvenWhileItsRouterTalksMoreOftenThanOnceASecond() throws Exception {
        try (ServerSocket router = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             NoticeClient client = new NoticeClient((InetSocketAddress) router.getLocalSocketAddress(), n -> { }, () -> { })) {
            router.setSoTimeout(5_000);
            try (Socket s = router.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                assertEquals(new ControlMessage.NoticePeer(""), read(in));
                Thread talker = new Thread(() -> { // a router's heartbeats, every 300 ms
                    try {
                        for (long seq = 1; !Thread.currentThread().isInterrupted(); seq++) {
                            s.getOutputStream().write(ControlCodec.encode(seq, new ControlMessage.Heartbeat()));
                            Thread.sleep(300);
                        }
                    } catch (IOException | InterruptedException e) {
                        // done
                    }
                });
                talker.setDaemon(true);
                talker.start();
                try {
                    // a router gives up a peer silent for 3 s (ControlLiveness.Timing.DEFAULT)
                    s.setSoTimeout(NoticeClient.SILENT_MS);
                    assertEquals(new ControlMessage.Heartbeat(), read(in), "the publisher said nothing");
                } finally {
                    talker.interrupt();
                }
            }
        }
    }
}
