package org.gridstat.core.control;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.List;
import org.gridstat.core.control.ControlFrame.Reject;
import org.gridstat.core.control.ControlMessage.Ack;
import org.gridstat.core.control.ControlMessage.Hello;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.control.ControlMessage.FlowReport;
import org.gridstat.core.control.ControlMessage.FlowSample;
import org.gridstat.core.control.ControlMessage.Emulation;
import org.gridstat.core.control.ControlMessage.Nack;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.control.ControlMessage.OutLinks;
import org.gridstat.core.control.ControlMessage.RemoveFlow;
import org.gridstat.core.control.ControlMessage.SyncEnd;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

class ControlCodecTest {
    static final InstallFlow INSTALL = new InstallFlow(3, 42, "r2", FlowSpec.of(7, ServiceClass.HRT, 15_600, 5_200,
            31_200, 20, "utilityA/sub1"), new long[] {16_666_667L, 50_000_000L}, 16_666_667L, 10_000_000L, 2_123_456L);

    static final InstallFlow INSTALL_WITH_UPSTREAM = new InstallFlow(3, 42, "r2", INSTALL.spec(), INSTALL.intervalsNanos(),
            16_666_667L, 10_000_000L, 2_123_456L, List.of(ControlMessage.Upstream.PUBLISHER,
            new ControlMessage.Upstream("r0", Endpoint.parse("127.0.0.1:9480")), new ControlMessage.Upstream("r9", null)));

    @Test
    void congestionNoticesAndPreviousHopsAreBoundedAndCheckedLikeEveryField() {
        assertNotEquals(INSTALL, INSTALL_WITH_UPSTREAM, "changed previous hops are a changed flow");
        assertEquals(INSTALL_WITH_UPSTREAM.upstream(), INSTALL_WITH_UPSTREAM.withVersion(4).upstream());
        byte[] notice = ControlCodec.encode(1, new ControlMessage.CongestionNotice(42, 20));
        ByteBuffer.wrap(notice).putInt(notice.length - 4, ControlMessage.CongestionNotice.MAX_RATE_HZ + 1);
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(notice, 4, notice.length - 4)).detail().contains("Hz"));
        ByteBuffer.wrap(notice).putInt(notice.length - 4, -1);
        assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(notice, 4, notice.length - 4));
        byte[] zero = ControlCodec.encode(1, new ControlMessage.CongestionNotice(42, 20));
        ByteBuffer.wrap(zero).putLong(4 + 10, 0);
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(zero, 4, zero.length - 4)).detail().contains("reserved"));

        byte[] many = ControlCodec.encode(1, new ControlMessage.Publishes(new long[] {1, 2}));
        ByteBuffer.wrap(many).putShort(4 + 10, (short) (ControlMessage.Publishes.MAX_VARIABLES + 1));
        assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(many, 4, many.length - 4));
        ByteBuffer.wrap(many).putShort(4 + 10, (short) 3); // more named than the body holds
        assertReject(Reject.TRUNCATED, ByteBuffer.wrap(many, 4, many.length - 4));
        assertThrows(IllegalArgumentException.class, () -> new ControlMessage.Publishes(new long[ControlMessage.Publishes.MAX_VARIABLES + 1]));

        List<ControlMessage.Upstream> nine = new java.util.ArrayList<>();
        for (int i = 0; i < InstallFlow.MAX_UPSTREAM + 1; i++) {
            nine.add(new ControlMessage.Upstream("r" + i, null));
        }
        assertThrows(IllegalArgumentException.class, () -> new InstallFlow(3, 42, "r2", INSTALL.spec(), new long[0], 0, 0, 0, nine));
        assertThrows(IllegalArgumentException.class, () -> new ControlMessage.Upstream("", Endpoint.parse("127.0.0.1:1")),
                "the publisher has no router address");
        byte[] hops = ControlCodec.encode(1, INSTALL_WITH_UPSTREAM);
        int count = hops.length - (1 + (2 + 2) + (2 + 2 + 2 + 14) + (2 + 2 + 2)); // the count, ""/"", r0/127.0.0.1:9480, r9/""
        assertEquals(3, hops[count]);
        hops[count] = (byte) (InstallFlow.MAX_UPSTREAM + 1);
        assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(hops, 4, hops.length - 4));
        // The publisher named twice (a fuzzer's finding): refused, not folded into one, which would re-encode shorter.
        byte[] twice = java.util.Arrays.copyOf(hops, hops.length + 4);
        twice[count] = 4;
        ByteBuffer.wrap(twice).putInt(0, twice.length - 4);
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(twice, 4, twice.length - 4)).detail().contains("twice"));
    }

    private static ControlFrame roundTrip(long seq, ControlMessage m) {
        byte[] frame = ControlCodec.encode(seq, m);
        assertEquals(frame.length - 4, ByteBuffer.wrap(frame).getInt(), "length prefix");
        return ControlCodec.decode(ByteBuffer.wrap(frame, 4, frame.length - 4));
    }

    @Test
    void everyMessageRoundTrips() {
        List<ControlMessage> all = List.of(new Hello("router-7/α"), INSTALL, new RemoveFlow(7, 4), new SyncEnd(),
                new Ack(99), new Nack(100, "link r9 does not exist"), REPORT, new FlowReport(5, List.of()),
                new ControlMessage.Heartbeat(), new ControlMessage.NoticePeer("r2"), new ControlMessage.NoticePeer(""),
                new ControlMessage.Publishes(new long[] {42, -7}), new ControlMessage.CongestionNotice(42, 20),
                new ControlMessage.CongestionNotice(-7, 0), INSTALL_WITH_UPSTREAM,
                new FlowReport(6, List.of(new ControlMessage.FlowSample(9, 1, 288, 0, 0, 0, 20, 20, 5_760, 662, 0, 2))),
                new FlowReport(7, List.of(new ControlMessage.FlowSample(9, 1, 288, 0, 0, 0, 20, 20, 5_760, 662, 0, 2, 1_250, 14),
                        new ControlMessage.FlowSample(10, 1, 288, 0, 0, 0, 20, 20, 5_760, 662, 0, 0,
                                FlowSample.MAX_LATENCY_MICROS, Long.MAX_VALUE))));
        long seq = 1;
        for (ControlMessage m : all) {
            ControlFrame f = roundTrip(seq, m);
            assertTrue(f.valid(), f.toString());
            assertEquals(seq, f.sequence());
            assertEquals(m, f.message());
            seq++;
        }
    }

    private static final FlowReport REPORT = new FlowReport(1_790_000_000_000L, List.of(
            new FlowSample(7, 600, 156_000, 3, 2, 5, 60.0, 59.5, 20_160.0, 17_280, 2_880, 0, 1_834, 6),
            new FlowSample(8, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0, 0)));
    /** Where the first sample of REPORT starts in its frame: after the length prefix, the header, the time and the count. */
    private static final int FIRST_SAMPLE = 4 + 10 + 8 + 2;

    @Test
    void reportsKeepEverySampleAndRefuseImpossibleValues() {
        FlowReport r = (FlowReport) roundTrip(3, REPORT).message();
        assertEquals(REPORT, r);
        assertEquals(59.5, r.flows().get(0).departureRate());
        assertEquals(1_834, r.flows().get(0).latencyP99Micros());
        assertEquals(6, r.flows().get(0).reassignments());
        assertEquals(0, r.flows().get(1).latencyP99Micros(), "the constructor without them: none");
        assertEquals(0, r.flows().get(1).reassignments());

        // the latency p99 (u32, in µs) and the reassignments (u64) close each sample
        byte[] frame = ControlCodec.encode(1, REPORT);
        assertEquals(1_834, ByteBuffer.wrap(frame).getInt(FIRST_SAMPLE + 92));
        assertEquals(6, ByteBuffer.wrap(frame).getLong(FIRST_SAMPLE + 96));
        assertEquals(8, ByteBuffer.wrap(frame).getLong(FIRST_SAMPLE + 104), "the next sample's flow id follows");
        byte[] slow = frame.clone();
        ByteBuffer.wrap(slow).putInt(FIRST_SAMPLE + 92, (int) FlowSample.MAX_LATENCY_MICROS + 1);
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(slow, 4, slow.length - 4)).detail().contains("latency p99"));
        byte[] unsigned = frame.clone();
        ByteBuffer.wrap(unsigned).putInt(FIRST_SAMPLE + 92, -1); // 4,294,967,295 µs, not -1
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(unsigned, 4, unsigned.length - 4)).detail()
                .contains("4294967295"));
        byte[] negative = frame.clone();
        ByteBuffer.wrap(negative).putLong(FIRST_SAMPLE + 96, -1);
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(negative, 4, negative.length - 4)).detail()
                .contains("must not be negative"));
        assertThrows(IllegalArgumentException.class, () -> new FlowSample(7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowSample(7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1));

        byte[] events = ControlCodec.encode(1, REPORT);
        ByteBuffer.wrap(events).putLong(FIRST_SAMPLE + 8, -1); // first sample's events sent
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(events, 4, events.length - 4)).detail()
                .contains("must not be negative"));
        byte[] nan = ControlCodec.encode(1, REPORT);
        ByteBuffer.wrap(nan).putDouble(4 + 10 + 8 + 2 + 6 * 8, Double.NaN); // first sample's arrival rate
        assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(nan, 4, nan.length - 4));
        byte[] many = ControlCodec.encode(1, REPORT);
        ByteBuffer.wrap(many).putShort(4 + 10 + 8, (short) 60_000); // a count far beyond the limit and the body
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(many, 4, many.length - 4)).detail().contains("at most 512"));
        byte[] more = ControlCodec.encode(1, REPORT);
        ByteBuffer.wrap(more).putShort(4 + 10 + 8, (short) 3); // one sample more than the body holds
        assertReject(Reject.TRUNCATED, ByteBuffer.wrap(more, 4, more.length - 4));
    }

    @Test
    void installKeepsEveryFlowField() {
        InstallFlow f = (InstallFlow) roundTrip(1, INSTALL).message();
        assertEquals(3, f.version());
        assertEquals(42, f.variableId());
        assertEquals("r2", f.link());
        assertEquals(7, f.spec().flowId());
        assertEquals(ServiceClass.HRT, f.spec().serviceClass());
        assertEquals(15_600, f.spec().assuredRate());
        assertEquals(5_200, f.spec().minimumRate());
        assertEquals(31_200, f.spec().ceilingRate());
        assertEquals(20, f.spec().bufferEvents());
        assertEquals("utilityA/sub1", f.spec().correlationGroup());
        assertArrayEquals(new long[] {16_666_667L, 50_000_000L}, f.intervalsNanos());
        assertEquals(16_666_667L, f.publisherIntervalNanos());
        assertEquals(10_000_000L, f.downstreamBudgetNanos());
        assertEquals(2_123_456L, f.minRestDelayNanos());
    }

    /** Offset in a frame (length prefix included) of INSTALL's rest delay: after its 2 intervals, publisher interval and budget. */
    private static final int REST_AT = 4 + 10 + 8 + 8 + 2 + 2 + 8 + 1 + 8 + 8 + 8 + 4 + 2 + 2 * 8 + 8 + 8;

    @Test
    void theRestDelayTravelsAfterTheBudgetAndIsNeverNegative() {
        byte[] frame = ControlCodec.encode(1, INSTALL);
        assertEquals(2_123_456L, ByteBuffer.wrap(frame).getLong(REST_AT));
        assertEquals(10_000_000L, ByteBuffer.wrap(frame).getLong(REST_AT - 8), "the downstream budget just before it");
        ByteBuffer.wrap(frame).putLong(REST_AT, -1);
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(frame, 4, frame.length - 4)).detail().contains("rest delay"));
        assertThrows(IllegalArgumentException.class, () -> new InstallFlow(1, 42, "r2", INSTALL.spec(), new long[0], 0, 0, -1));

        InstallFlow unknown = new InstallFlow(3, 42, "r2", INSTALL.spec(), new long[0], 0, 10);
        assertEquals(0, unknown.minRestDelayNanos(), "the constructor without it means none known");
        assertEquals(0, ((InstallFlow) roundTrip(1, unknown).message()).minRestDelayNanos());
        assertNotEquals(INSTALL, new InstallFlow(3, 42, "r2", INSTALL.spec(), INSTALL.intervalsNanos(), 16_666_667L,
                10_000_000L, 2_123_455L), "a changed rest delay is a changed flow");
        assertEquals(2_123_456L, INSTALL.withVersion(9).minRestDelayNanos());
    }

    static final OutLinks OUT_LINKS = new OutLinks(List.of(
            OutLink.of("r2", Endpoint.parse("127.0.0.1:9480"), 12_500_000),
            new OutLink("control-center", Endpoint.parse("[::1]:9471"), Endpoint.parse("cc.example:9472"), 1_250_000,
                    60, 30, 10, 3_000, 65_507, new Emulation(5_000_000, 0.01, 60_000_000_000L, 2_000_000_000L, 7, 262_144))));

    @Test
    void outLinksKeepEveryFieldAndAreBounded() {
        ControlFrame f = roundTrip(4, OUT_LINKS);
        assertTrue(f.valid(), f.toString());
        assertEquals(OUT_LINKS, f.message());
        OutLink cc = ((OutLinks) f.message()).links().get(1);
        assertEquals("cc.example:9472", cc.priority().toString());
        assertEquals(0.01, cc.emulation().loss());
        assertNull(((OutLinks) f.message()).links().get(0).priority(), "no priority port travels as none");
        assertTrue(((OutLinks) roundTrip(5, new OutLinks(List.of())).message()).links().isEmpty());

        // A count above the bound, an address not written canonically and impossible values are refused.
        byte[] b = ControlCodec.encode(1, OUT_LINKS);
        ByteBuffer.wrap(b).putShort(4 + 10, (short) (OutLinks.MAX_LINKS + 1));
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(b, 4, b.length - 4)).detail().contains("at most 256"));
        byte[] spaced = ControlCodec.encode(1, new OutLinks(List.of(OutLink.of("r2", Endpoint.parse("a:1"), 1))));
        spaced[4 + 10 + 2 + 2 + 2 + 2 + 2] = '+'; // "a:+" : the port's first digit
        assertEquals(Reject.BAD_FIELD, ControlCodec.decode(ByteBuffer.wrap(spaced, 4, spaced.length - 4)).reject());
        byte[] shares = ControlCodec.encode(1, new OutLinks(List.of(OutLink.of("r2", Endpoint.parse("a:1"), 1))));
        shares[4 + 10 + 2 + 2 + 2 + 2 + 3 + 2 + 8] = 90; // hrt 90 % beside lrt 30 and be 20
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(shares, 4, shares.length - 4)).detail()
                .contains("add up to at most 100"));
        List<OutLink> two = List.of(OutLink.of("r2", Endpoint.parse("a:1"), 1), OutLink.of("r2", Endpoint.parse("b:1"), 1));
        assertThrows(IllegalArgumentException.class, () -> new OutLinks(two), "a name given twice");
        assertThrows(IllegalArgumentException.class, () -> OutLink.of("r 2", Endpoint.parse("a:1"), 1), "a name with a space");

        // The largest count fits the body limit with short addresses, and longer ones are refused when encoding.
        List<OutLink> many = new java.util.ArrayList<>();
        for (int i = 0; i < OutLinks.MAX_LINKS; i++) {
            many.add(OutLink.of("link-" + i, Endpoint.parse("10.0.0." + (i % 250) + ":" + (9000 + i)), 1_000_000));
        }
        assertEquals(many, ((OutLinks) roundTrip(6, new OutLinks(many)).message()).links());
        List<OutLink> long_ = new java.util.ArrayList<>();
        for (int i = 0; i < OutLinks.MAX_LINKS; i++) {
            long_.add(OutLink.of("l" + i, Endpoint.parse("a".repeat(200) + ":1"), 1));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControlCodec.encode(1, new OutLinks(long_)));
        assertTrue(e.getMessage().contains("body limit"), e.getMessage());
    }

    @Test
    void olderSchemasAreRefusedWholeAndTheSeedCorpusHoldsOneValidFrameOfEachMessage() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of(ControlCodecTest.class
                .getResource("ControlCodecFuzzTestInputs/decodeArbitraryBodies").toURI());
        java.util.Set<String> valid = new java.util.TreeSet<>();
        try (var files = java.nio.file.Files.list(dir)) {
            for (java.nio.file.Path p : files.toList()) {
                String name = p.getFileName().toString();
                ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(java.nio.file.Files.readAllBytes(p)));
                if (name.equals("install-schema1")) {
                    assertEquals(Reject.UNSUPPORTED_VERSION, f.reject(), f.toString());
                    assertEquals("schema version 1, this end speaks 5", f.detail());
                } else if (name.equals("flow-report-schema4")) { // a schema-4 router's report: no latency or reassignments
                    assertEquals(Reject.UNSUPPORTED_VERSION, f.reject(), f.toString());
                    assertEquals("schema version 4, this end speaks 5", f.detail());
                } else {
                    assertTrue(f.valid(), name + ": " + f);
                    valid.add(f.message().getClass().getSimpleName());
                }
            }
        }
        assertEquals(java.util.Set.of("Ack", "CongestionNotice", "FlowReport", "Heartbeat", "Hello", "InstallFlow", "Nack",
                "NoticePeer", "OutLinks", "Publishes", "RemoveFlow", "SyncEnd"), valid);
    }

    @Test
    void eachMalformationHasItsReason() {
        byte[] good = ControlCodec.encode(5, INSTALL);
        assertReject(Reject.TRUNCATED, ByteBuffer.wrap(good, 4, 5));
        assertReject(Reject.TRUNCATED, ByteBuffer.wrap(good, 4, good.length - 10));
        assertReject(Reject.OVERSIZE, ByteBuffer.allocate(ControlCodec.MAX_BODY + 1));
        byte[] older = good.clone();
        older[4] = 4;
        assertReject(Reject.UNSUPPORTED_VERSION, ByteBuffer.wrap(older, 4, older.length - 4));
        byte[] newer = good.clone();
        newer[4] = 6;
        assertReject(Reject.UNSUPPORTED_VERSION, ByteBuffer.wrap(newer, 4, newer.length - 4));
        byte[] type = good.clone();
        type[5] = 77;
        assertReject(Reject.UNKNOWN_TYPE, ByteBuffer.wrap(type, 4, type.length - 4));
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 3);
        assertReject(Reject.TRAILING_BYTES, ByteBuffer.wrap(longer, 4, longer.length - 4));

        // Rates that break MR <= AR <= CR are refused with the flow's own message.
        InstallFlow bad = new InstallFlow(3, 42, "r2", FlowSpec.of(7, ServiceClass.HRT, 10, 0, 20, 20, ""), new long[0], 0, 0);
        byte[] b = ControlCodec.encode(1, bad);
        ByteBuffer.wrap(b).putLong(4 + 10 + 8 + 8 + 2 + 2 + 8 + 1 + 8 + 8, 5); // ceiling below the assured rate
        ControlFrame f = assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(b, 4, b.length - 4));
        assertTrue(f.detail().contains("MR <= AR <= CR"), f.detail());

        byte[] utf = ControlCodec.encode(1, new Hello("ab"));
        utf[utf.length - 1] = (byte) 0xC3; // a lead byte with no continuation
        assertTrue(assertReject(Reject.BAD_FIELD, ByteBuffer.wrap(utf, 4, utf.length - 4)).detail().contains("UTF-8"));
    }

    private static ControlFrame assertReject(Reject expected, ByteBuffer body) {
        ControlFrame f = ControlCodec.decode(body);
        assertFalse(f.valid());
        assertEquals(expected, f.reject(), f.toString());
        return f;
    }
}
