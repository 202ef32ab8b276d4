package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.CongestionNotice;
import org.junit.jupiter.api.Test;

/** A publisher's congestion-notice connection against a router played on a plain loopback socket. */
class NoticeClientTest {

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
}
