package org.gridstat.gateway.aggregate;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.junit.jupiter.api.Test;

/** Each region's aggregates go out as one variable, stamped with the interval's start, declared once. */
class PublishingSinkTest {
    private static final long T0 = 1_800_000_000_000_000_000L;

    @Test
    void eachRegionIsOneVariableStampedWithItsIntervalsStart() throws Exception {
        List<String> declared = new ArrayList<>();
        try (DatagramChannel router = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             Publisher pub = Publisher.connect((InetSocketAddress) router.getLocalAddress(), new ManualClock(T0))) {
            PublishingSink sink = new PublishingSink(pub, PublishingSink.regionNames("utilityA/meters", Map.of(7, "utilityA/feeder-7")),
                    ServiceClass.BE, null, Duration.ofSeconds(1),
                    (name, bytes, interval, serviceClass) -> declared.add(name + " " + interval + " " + serviceClass));
            byte[] payload = new byte[AggregatePayload.LISTS_AT];
            payload[0] = 3;
            sink.emit(3, T0, payload, 0, payload.length);
            sink.emit(7, T0, payload, 0, payload.length);
            sink.emit(3, T0 + 1_000_000_000L, payload, 0, payload.length);
            assertEquals(3, sink.published());
            assertEquals(List.of("utilityA/meters/region-3 PT1S BE", "utilityA/feeder-7 PT1S BE"), declared);

            ByteBuffer buf = ByteBuffer.allocate(65_536);
            DatagramReader reader = new DatagramReader();
            StatusEventDecoder d = new StatusEventDecoder();
            List<String> got = new ArrayList<>();
            router.socket().setSoTimeout(5_000);
            while (got.size() < 3) {
                buf.clear();
                router.receive(buf);
                buf.flip();
                assertEquals(RejectReason.NONE, reader.open(buf, 0, buf.limit()));
                while (reader.next()) {
                    assertEquals(RejectReason.NONE, d.wrap(buf, reader.eventOffset(), reader.eventLength()));
                    assertEquals(AggregatePayload.LISTS_AT, d.payloadLength());
                    got.add(d.variableId() + "/" + d.sequence() + "@" + (d.sourceTimeNanos() - T0));
                }
            }
            long region3 = VariableId.ofName(VariableName.of("utilityA/meters/region-3")).value();
            long feeder7 = VariableId.ofName(VariableName.of("utilityA/feeder-7")).value();
            assertEquals(List.of(region3 + "/0@0", feeder7 + "/0@0", region3 + "/1@1000000000"), got);
        }
    }

    @Test
    void aBadNameIsRefusedWhenTheSinkIsMade() {
        assertThrows(IllegalArgumentException.class, () -> PublishingSink.regionNames("bad name", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> PublishingSink.regionNames("ok", Map.of(1, "a//b")));
    }
}
