package org.gridstat.gateway.egress;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.SystemNanoClock;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.ingest.VariableNames;
import org.gridstat.gateway.mapping.PmuDescription;
import org.gridstat.gateway.mapping.PmuSample;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.junit.jupiter.api.Test;

/** An egress stream fed by status events on loopback: what it refuses, and when it serves. */
class EgressStreamTest {
    private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);

    private static PmuSimSpec spec(int id, String station, int digitals, int cfgcnt) {
        return new PmuSimSpec(id, 2, 50, 1_000_000, List.of(new SimulatedPmu(station, id,
                DataFormat.of(false, false, false, false), 2, 1, digitals, NominalFrequency.HZ_60)), cfgcnt);
    }

    private static void describe(Publisher pub, String variable, ConfigFrame cfg) {
        Publication d = pub.publication(VariableId.ofName(VariableName.of(VariableNames.description(variable))),
                ServiceClass.BE, null);
        long t = System.currentTimeMillis() * 1_000_000L;
        for (byte[] part : PmuDescription.parts(PmuDescription.forPmu(cfg, 0), WireFormat.MAX_PAYLOAD_LENGTH)) {
            d.publish(part, 0, part.length, t++);
        }
    }

    private static void await(BooleanSupplier c, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void aTakenPortFailsTheStartNamingIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            InetSocketAddress port = new InetSocketAddress("127.0.0.1", taken.getLocalPort());
            RuntimeException e = assertThrows(RuntimeException.class, () -> new EgressStream(
                    EgressSettings.of("cc", 7, List.of("u/s/A")), PmuServer.Settings.tcp(port), SystemNanoClock.INSTANCE));
            assertTrue(e.getMessage().contains(String.valueOf(taken.getLocalPort())), e.getMessage());
        }
    }

    @Test
    void beforeItsDescriptionsTheStreamAnswersNoConfigurationAndKeepsTheClient() throws Exception {
        EgressStream e = new EgressStream(EgressSettings.of("cc", 7, List.of("u/s/A")), PmuServer.Settings.tcp(ANY),
                SystemNanoClock.INSTANCE);
        try (Subscriber sub = Subscriber.open(ANY, e::onEvent);
             Publisher pub = Publisher.connect(sub.localAddress());
             Socket client = new Socket()) {
            client.connect(e.server().tcpAddress(), 2_000);
            client.setSoTimeout(5_000);
            client.getOutputStream().write(command(CommandFrame.SEND_CONFIG_2));
            describe(pub, "u/s/A", PmuSimulator.configFor(spec(7, "A", 1, 1)));
            await(() -> e.served() != null, "the description");
            client.getOutputStream().write(command(CommandFrame.SEND_CONFIG_2));
            InputStream in = client.getInputStream();
            byte[] header = in.readNBytes(CommonHeader.LENGTH);
            assertEquals(FrameType.CONFIG_2, CommonHeader.type(ByteBuffer.wrap(header), 0),
                    "the first answer is to the second request: the first had none, and the connection stayed");
        } finally {
            e.close();
        }
    }

    @Test
    void pmusWhoseJoinedConfigurationCannotBeOneFrameAreNotServedAndSaySo() throws Exception {
        EgressStream e = new EgressStream(EgressSettings.of("cc", 7, List.of("u/s/A", "u/s/B")),
                PmuServer.Settings.tcp(ANY), SystemNanoClock.INSTANCE);
        try (Subscriber sub = Subscriber.open(ANY, e::onEvent); Publisher pub = Publisher.connect(sub.localAddress())) {
            describe(pub, "u/s/A", PmuSimulator.configFor(spec(1, "A", 130, 1))); // 130 digital words: 33,8xx B each
            describe(pub, "u/s/B", PmuSimulator.configFor(spec(2, "B", 130, 1)));
            await(() -> e.count(EgressCounter.CONFIGURATION_TOO_LARGE) == 1, "the refusal");
            assertNull(e.served());
        } finally {
            e.close();
        }
    }

    @Test
    void aSampleOfAConfigurationNotYetDescribedIsNotServedUnderTheOldOne() throws Exception {
        PmuSimSpec before = spec(7, "A", 1, 1);
        PmuSimSpec after = before.withConfigCount(2); // the same shape, another CFGCNT
        EgressStream e = new EgressStream(EgressSettings.of("cc", 7, List.of("u/s/A")), PmuServer.Settings.tcp(ANY),
                SystemNanoClock.INSTANCE);
        try (Subscriber sub = Subscriber.open(ANY, e::onEvent); Publisher pub = Publisher.connect(sub.localAddress())) {
            describe(pub, "u/s/A", PmuSimulator.configFor(before));
            await(() -> e.served() != null, "the first description");
            Publication samples = pub.publication(VariableId.ofName(VariableName.of("u/s/A")), ServiceClass.HRT, null);
            ConfigFrame cfg = PmuSimulator.configFor(after);
            DataLayout layout = DataLayout.of(cfg);
            DataFrameReader r = new DataFrameReader();
            byte[] buf = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
            long soc = System.currentTimeMillis() / 1000;
            for (int k = 0; k < 5; k++) {
                byte[] f = PmuSimulator.dataFrame(after, cfg, soc, k * 20_000, 0);
                r.wrap(layout, ByteBuffer.wrap(f), 0, f.length);
                int n = PmuSample.encode(r, 0, 2, buf, 0);
                samples.publish(buf, 0, n, soc * 1_000_000_000L + k * 20_000_000L);
            }
            await(() -> e.count(EgressCounter.SAMPLES_CONFIG_MISMATCH) == 5, "the five refusals");
            assertEquals(0, e.count(EgressCounter.FRAMES_COMPLETE));
        } finally {
            e.close();
        }
    }

    private static byte[] command(int code) {
        return CommandFrameCodec.encode(new CommandFrame(2, 7, System.currentTimeMillis() / 1000, 0, code));
    }
}
