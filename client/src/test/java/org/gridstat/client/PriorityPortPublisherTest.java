package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.wire.StatusEventDecoder;
import org.junit.jupiter.api.Test;

/** A publisher given the router's priority port sends HRT and LRT there and best effort to the data port. */
class PriorityPortPublisherTest {
    @Test
    void hrtAndLrtGoToThePriorityPortAndBestEffortToTheDataPort() throws Exception {
        try (DatagramChannel data = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel priority = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             Publisher pub = Publisher.connect((InetSocketAddress) data.getLocalAddress(),
                     (InetSocketAddress) priority.getLocalAddress())) {
            pub.publication(VariableId.of(1), ServiceClass.BE, null).publish(1.0);
            pub.publication(VariableId.of(2), ServiceClass.HRT, Duration.ofMillis(50)).publish(2.0);
            pub.publication(VariableId.of(3), ServiceClass.LRT, Duration.ofMillis(100)).publish(3.0);
            pub.publication(VariableId.of(4), ServiceClass.BE, null).publish(4.0);
            assertEquals(List.of(1L, 4L), variables(data, 2));
            assertEquals(List.of(2L, 3L), variables(priority, 2));
            assertEquals(4, pub.sent());
        }
    }

    @Test
    void withoutAPriorityPortEverythingGoesToTheDataPort() throws Exception {
        try (DatagramChannel data = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             Publisher pub = Publisher.connect((InetSocketAddress) data.getLocalAddress(), (InetSocketAddress) null)) {
            pub.publication(VariableId.of(2), ServiceClass.HRT, Duration.ofMillis(50)).publish(2.0);
            pub.publication(VariableId.of(1), ServiceClass.BE, null).publish(1.0);
            assertEquals(List.of(2L, 1L), variables(data, 2));
        }
    }

    private static List<Long> variables(DatagramChannel ch, int n) throws Exception {
        List<Long> ids = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(2048);
        StatusEventDecoder d = new StatusEventDecoder();
        for (int i = 0; i < n; i++) {
            buf.clear();
            ch.receive(buf); // blocking: loopback has delivered them already
            buf.flip();
            d.wrap(buf, 0, buf.limit());
            ids.add(d.variableId());
        }
        return ids;
    }
}
