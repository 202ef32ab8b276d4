package org.gridstat.gui.model;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A link's load counts what the link carries: frames and each event's IP and UDP headers. */
class LinkLoadTest {
    /** 40,320 B/s: exactly 140 events a second of 260-byte frames with their 28 bytes of headers. */
    private static final NetworkTopology.Link LINK = new NetworkTopology.Link("ovl", "gwB", 40_320, 0,
            Map.of("HRT", 60, "LRT", 30, "BE", 10));

    @Test
    void aLinkFullOf260ByteFramesReadsFull() {
        // 100 HRT events a second and 40 best-effort ones, each flow having sent 5,000 events so far
        LinkLoad load = LinkLoad.of(LINK, List.of(flow(1, "HRT", 26_000, 5_000, 260),
                flow(2, "BE", 10_400, 5_000, 260), flow(3, "LRT", 0, 0, 0)));
        assertEquals(28_800, load.sentBytesPerSecond().get("HRT"), "100 events a second of 288 bytes on the wire");
        assertEquals(11_520, load.sentBytesPerSecond().get("BE"));
        assertEquals(0, load.sentBytesPerSecond().get("LRT"), "a flow that has sent nothing adds nothing");
        assertEquals(1.0, load.utilisation(), 1e-9, "the link is full, not 90 %");
        assertEquals(28_800 / 40_320.0, load.utilisation("HRT"), 1e-9);
    }

    @Test
    void theEventsASecondComeFromTheFlowsMeanFrameSize() {
        // 1,000 events of 100 bytes and 1,000 of 300 so far: 200 bytes on average; 4,000 B/s of frames now
        LinkLoad load = LinkLoad.of(LINK, List.of(flow(1, "LRT", 4_000, 2_000, 200)));
        assertEquals(4_000 + 20 * 28, load.sentBytesPerSecond().get("LRT"));
    }

    @Test
    void flowsOfOtherLinksAndFlowsWithoutAReportAreLeftOut() {
        Flow elsewhere = new Flow("ovl", 9, 1, 9, "gwA", "HRT", 20_000, 10_000L, 40_000, List.of(),
                stats(26_000, 5_000, 260));
        Flow unreported = new Flow("ovl", 8, 1, 8, "gwB", "HRT", 20_000, 10_000L, 40_000, List.of(), null);
        LinkLoad load = LinkLoad.of(LINK, List.of(new Stamped<>(elsewhere, 0), new Stamped<>(unreported, 0)));
        assertEquals(0, load.sentBytesPerSecond().get("HRT"));
        assertEquals(20_000, load.reservedBytesPerSecond().get("HRT"), "its reservation is on the link all the same");
    }

    private static Stamped<Flow> flow(long id, String serviceClass, long departure, long events, long meanFrame) {
        return new Stamped<>(new Flow("ovl", id, 1, id, "gwB", serviceClass, 10_000, 5_000L, 40_000, List.of(),
                stats(departure, events, meanFrame)), 0);
    }

    private static FlowStatistics stats(long departure, long events, long meanFrame) {
        return new FlowStatistics(0, events, events * meanFrame, 0, 0, 0, departure, departure, 0, "STABLE", 10_000, 0, 0,
                null, null);
    }
}
