package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A second router configured with a port the first already serves refuses to start, naming the
 * process that holds the port; under epoll the data port is bound with SO_REUSEPORT, which would
 * otherwise let the second share it and take part of the first's traffic.
 */
class SecondRouterOnOnePortTest {
    private static int freePort() throws Exception {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static RouterSettings router(int port, String transport, int loops) {
        return RouterSettings.of("same-id", "127.0.0.1:" + port, loops, transport, 1 << 20, new String[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "nio"})
    void aSecondRouterOnTheSameDataPortRefusesToStartAndNamesTheHolder(String transport) throws Exception {
        int port = freePort();
        try (DataPlane first = DataPlane.start(router(port, "auto", 2))) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> DataPlane.start(router(port, transport, 1)).close());
            assertTrue(refused.getMessage().contains("data port 127.0.0.1:" + port + " is already bound by process "
                    + ProcessHandle.current().pid() + " ("), refused.getMessage());
            assertEquals(port, first.localAddress().getPort(), "the first keeps its port");
        }
        DataPlane.start(router(port, "auto", 1)).close(); // a freed port is taken again
    }

    @Test
    void aPriorityPortHeldByAnotherRouterIsRefusedToo() throws Exception {
        int data = freePort();
        int priority = freePort();
        try (DataPlane first = DataPlane.start(router(data, "auto", 1))) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> DataPlane.start(router(priority, "auto", 1).withPriorityPort("127.0.0.1:" + data)).close());
            assertTrue(refused.getMessage().startsWith("priority port 127.0.0.1:" + data + " is already bound by process "),
                    refused.getMessage());
        }
    }
}
