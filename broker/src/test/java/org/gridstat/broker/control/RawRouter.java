package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;

/** A router's end of the control channel by hand: a socket that says Hello, and the frames the broker sends it. */
final class RawRouter {
    private RawRouter() {
    }

    /** Connects to {@code server} as {@code router} and says Hello; reads time out after 5 s. */
    static Socket hello(ControlChannelServer server, String router) throws IOException {
        Socket s = new Socket();
        s.connect(server.address());
        s.setSoTimeout(5_000);
        s.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello(router)));
        return s;
    }

    /** The next frame the broker sent, which must be valid. */
    static ControlFrame read(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
        assertTrue(f.valid(), f.toString());
        return f;
    }
}
