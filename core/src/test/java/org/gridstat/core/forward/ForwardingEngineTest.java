package org.gridstat.core.forward;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.junit.jupiter.api.Test;

class ForwardingEngineTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;

    /** Counts references like a pooled buffer would. */
    static final class Refs implements EventReferences<String> {
        final Map<String, Integer> count = new HashMap<>();

        @Override
        public void retain(String e) {
            count.merge(e, 1, Integer::sum);
        }

        @Override
        public void release(String e) {
            count.merge(e, -1, Integer::sum);
        }

        int outstanding() {
            return count.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    private final Refs refs = new Refs();
    private final ForwardingEngine<String> engine = new ForwardingEngine<>(
            List.of(LinkSpec.withDefaultShares(10_000_000), LinkSpec.withDefaultShares(10_000_000)), 16, refs,
            EstimatorSettings.DEFAULT, T0);

    private static FlowEntry flow(long id, long version, long variable, int link, ServiceClass c, int... hz) {
        long[] intervals = new long[hz.length];
        for (int i = 0; i < hz.length; i++) {
            intervals[i] = SampleGrid.ofRate(hz[i]).intervalNanos();
        }
        return new FlowEntry(version, variable, link, FlowSpec.of(id, c, 100_000, 10_000_000), intervals,
                SampleGrid.ofRate(60).intervalNanos(), 5_000_000L);
    }

    private int drain(int link, long now, List<String> into) {
        int n = 0;
        String e;
        while ((e = engine.dequeue(link, now)) != null) {
            into.add(e);
            refs.release(e); // the sender's release after sending
            n++;
        }
        return n;
    }

    @Test
    void multicastQueuesOneCopyPerLinkAndEachLinkFiltersToItsRate() {
        engine.submit(FlowCommand.install(flow(1, 1, 42, 0, ServiceClass.HRT, 60)));
        engine.submit(FlowCommand.install(flow(2, 1, 42, 1, ServiceClass.HRT, 20)));
        assertEquals(2, engine.applyCommands(T0));
        SampleGrid sixty = SampleGrid.ofRate(60);
        List<String> onA = new java.util.ArrayList<>();
        List<String> onB = new java.util.ArrayList<>();
        long t = T0;
        for (int i = 0; i < 600; i++, t = sixty.next(t)) {
            String ev = "e" + i;
            refs.retain(ev); // the receiver's own reference
            int copies = engine.forward(42, t, t + 50_000_000L, ev, 260, t, t);
            assertEquals(i % 3 == 0 ? 2 : 1, copies, "sample " + i);
            refs.release(ev);
            drain(0, t, onA);
            drain(1, t, onB);
        }
        assertEquals(600, onA.size());
        assertEquals(200, onB.size());
        assertEquals(0, refs.outstanding(), "every reference given back");
        ForwardingCounters c = engine.counters();
        assertEquals(800, c.queued());
        assertEquals(400, c.filtered());
    }

    @Test
    void aLateEventStillLeavesWhileItCanMeetItsEndToEndDeadlineAndIsDroppedAfter() {
        // Deadline T0 + 8 ms; downstream budget 5 ms: hop deadline T0 + 3 ms. The rest of the path
        // needs at least 2 ms: the event expires at T0 + 6 ms.
        engine.submit(FlowCommand.install(new FlowEntry(1, 7, 0, FlowSpec.of(1, ServiceClass.HRT, 100_000, 10_000_000),
                new long[0], SampleGrid.ofRate(60).intervalNanos(), 5_000_000L, 2_000_000L)));
        engine.applyCommands(T0);
        for (String ev : new String[] {"late", "expired"}) {
            refs.retain(ev);
            assertEquals(1, engine.forward(7, T0, T0 + 8_000_000L, ev, 260, T0, T0));
            refs.release(ev);
        }
        assertEquals("late", engine.dequeue(0, T0 + 3_000_001L), "past its hop deadline, yet still useful: sent");
        refs.release("late"); // sent: the sender gives its reference back
        assertEquals(0, engine.statistics(0).flow(1).queue().deadlineMisses());
        assertNull(engine.dequeue(0, T0 + 6_000_001L), "past its expiry: dropped at the head, costing no bandwidth");
        assertEquals(1, engine.statistics(0).flow(1).queue().deadlineMisses());
        assertEquals(0, refs.outstanding());
    }

    @Test
    void theEarlierHopDeadlineGoesFirstAcrossFlows() {
        // Same end-to-end deadline; flow 2 has the longer rest of path, so its hop deadline is earlier.
        engine.submit(FlowCommand.install(new FlowEntry(1, 7, 0, FlowSpec.of(1, ServiceClass.HRT, 100_000, 10_000_000),
                new long[0], SampleGrid.ofRate(60).intervalNanos(), 1_000_000L, 0)));
        engine.submit(FlowCommand.install(new FlowEntry(1, 8, 0, FlowSpec.of(2, ServiceClass.HRT, 100_000, 10_000_000),
                new long[0], SampleGrid.ofRate(60).intervalNanos(), 4_000_000L, 0)));
        engine.applyCommands(T0);
        refs.retain("a");
        refs.retain("b");
        engine.forward(7, T0, T0 + 8_000_000L, "a", 260, T0, T0);
        engine.forward(8, T0, T0 + 8_000_000L, "b", 260, T0, T0);
        refs.release("a");
        refs.release("b");
        assertEquals("b", engine.dequeue(0, T0));
        assertEquals("a", engine.dequeue(0, T0));
        refs.release("a");
        refs.release("b");
        assertEquals(0, refs.outstanding());
    }

    @Test
    void versionsMakeCommandsIdempotentAndOrdered() {
        engine.submit(FlowCommand.install(flow(1, 2, 7, 0, ServiceClass.HRT)));
        engine.submit(FlowCommand.install(flow(1, 2, 7, 0, ServiceClass.BE)));  // same version again: stale
        engine.submit(FlowCommand.install(flow(1, 1, 7, 0, ServiceClass.BE)));  // older: stale
        engine.applyCommands(T0);
        assertEquals(ServiceClass.HRT, engine.flows().get(0).spec().serviceClass());
        assertEquals(2, engine.counters().commandsStale());

        // A newer version changes the class in place.
        engine.submit(FlowCommand.install(flow(1, 3, 7, 0, ServiceClass.LRT)));
        engine.applyCommands(T0);
        assertEquals(ServiceClass.LRT, engine.statistics(0).flow(1).serviceClass());

        // Moving the flow to the other link re-creates it there.
        engine.submit(FlowCommand.install(flow(1, 4, 7, 1, ServiceClass.LRT)));
        engine.applyCommands(T0);
        assertNull(engine.statistics(0).flow(1));
        assertNotNull(engine.statistics(1).flow(1));

        engine.submit(FlowCommand.remove(1, 5));
        engine.submit(FlowCommand.remove(1, 5));                                 // already gone: stale
        engine.submit(FlowCommand.install(flow(1, 4, 7, 1, ServiceClass.LRT)));  // late install of an old version
        engine.applyCommands(T0);
        assertTrue(engine.flows().isEmpty());
        assertEquals(-1, engine.forward(7, T0, 0, "x", 100, T0, T0), "variable no longer routed");
        assertEquals(1, engine.counters().unknownVariable());
        assertEquals(4, engine.counters().commandsStale());

        engine.submit(FlowCommand.install(flow(1, 6, 7, 0, ServiceClass.BE)));
        engine.applyCommands(T0);
        assertEquals(1, engine.flows().size(), "a newer install after removal is taken");
    }

    @Test
    void aRemoveThatOvertakesItsInstallKeepsTheLateInstallOut() {
        List<String> heard = new java.util.ArrayList<>();
        ForwardingEngine.CommandListener listener = (c, outcome, reason) -> heard.add(c.flowId() + " " + outcome);
        // Reordered after a broker failover: the remove of version 3 comes before the install of version 3.
        engine.submit(FlowCommand.remove(1, 3), listener);
        engine.submit(FlowCommand.install(flow(1, 3, 7, 0, ServiceClass.HRT)), listener);
        engine.submit(FlowCommand.install(flow(1, 2, 7, 0, ServiceClass.HRT)), listener);
        engine.submit(FlowCommand.remove(1, 2), listener);
        engine.applyCommands(T0);
        assertEquals(List.of("1 APPLIED", "1 STALE", "1 STALE", "1 STALE"), heard);
        assertTrue(engine.flows().isEmpty(), "the late install stays out");
        assertEquals(ForwardingEngine.UNKNOWN_VARIABLE, engine.forward(7, T0, 0, "x", 100, T0, T0));

        engine.submit(FlowCommand.install(flow(1, 4, 7, 0, ServiceClass.HRT)), listener);
        engine.applyCommands(T0);
        assertEquals("1 APPLIED", heard.get(4), "a newer version than the removal is installed");
        assertEquals(4, engine.flows().get(0).version());
    }

    @Test
    void reportsEachLinkThatGotEventsOnceUntilAskedAgain() {
        engine.submit(FlowCommand.install(flow(1, 1, 7, 1, ServiceClass.BE)));
        engine.applyCommands(T0);
        for (int i = 0; i < 3; i++) {
            refs.retain("t" + i);
            engine.forward(7, T0 + i, 0, "t" + i, 100, T0, T0);
            refs.release("t" + i);
        }
        engine.forward(99, T0, 0, "unknown", 100, T0, T0);
        List<Integer> touched = new java.util.ArrayList<>();
        engine.drainTouched(touched::add);
        assertEquals(List.of(1), touched, "link 1 once, link 0 never");
        touched.clear();
        engine.drainTouched(touched::add);
        assertEquals(List.of(), touched, "forgotten once reported");
        drain(1, T0, new java.util.ArrayList<>());
        assertEquals(0, refs.outstanding());
    }

    @Test
    void theListenerHearsWhatBecameOfEachCommand() {
        List<String> heard = new java.util.ArrayList<>();
        ForwardingEngine.CommandListener listener = (c, outcome, reason) -> heard.add(c.flowId() + " " + outcome + " " + reason);
        engine.submit(FlowCommand.install(flow(1, 2, 7, 0, ServiceClass.HRT)), listener);
        engine.submit(FlowCommand.install(flow(1, 1, 7, 0, ServiceClass.HRT)), listener);
        engine.submit(FlowCommand.install(flow(2, 1, 8, 9, ServiceClass.HRT)), listener);
        engine.submit(FlowCommand.remove(1, 2), listener);
        engine.applyCommands(T0);
        assertEquals(List.of("1 APPLIED ", "1 STALE ", "2 REJECTED flow 2: out-link 9 does not exist (2 links)",
                "1 APPLIED "), heard);
        ForwardingCounters c = engine.counters();
        assertEquals(2, c.commandsApplied());
        assertEquals(1, c.commandsStale());
        assertEquals(1, c.commandsRejected());
    }

    @Test
    void commandsForMissingLinksOrFullLinksAreRejectedWithAReason() {
        engine.submit(FlowCommand.install(flow(1, 1, 7, 5, ServiceClass.HRT)));
        engine.applyCommands(T0);
        assertEquals(1, engine.counters().commandsRejected());
        assertTrue(engine.lastRejection().contains("out-link 5 does not exist"), engine.lastRejection());
        for (int i = 0; i < 17; i++) {
            engine.submit(FlowCommand.install(flow(100 + i, 1, 1000 + i, 0, ServiceClass.BE)));
        }
        engine.applyCommands(T0);
        assertEquals(2, engine.counters().commandsRejected());
        assertTrue(engine.lastRejection().contains("maximum of 16 flows"), engine.lastRejection());
    }

    @Test
    void aFullBufferRefusesTheCopyAndReleasesItsReference() {
        engine.submit(FlowCommand.install(new FlowEntry(1, 9, 0,
                FlowSpec.of(1, ServiceClass.BE, 0, 0, 1_000, 2, ""), new long[0], 0, 0)));
        engine.applyCommands(T0);
        for (int i = 0; i < 5; i++) {
            String ev = "b" + i;
            refs.retain(ev);
            engine.forward(9, T0, 0, ev, 260, T0, T0);
            refs.release(ev);
        }
        assertEquals(3, engine.counters().refused());
        assertEquals(3, engine.statistics(0).flow(1).queue().overflowDrops());
        assertEquals(2, refs.outstanding(), "only the two queued copies still hold references");
    }

    @Test
    void aFrameStampedAnHourAheadIsRefusedAndTheOnTimeSamplesAfterItAllPass() {
        // Variable 7 at 60 Hz with a 30 Hz subscription on link 0 and a 60 Hz one on link 1.
        engine.submit(FlowCommand.install(flow(1, 1, 7, 0, ServiceClass.HRT, 30)));
        engine.submit(FlowCommand.install(flow(2, 1, 7, 1, ServiceClass.HRT, 60)));
        engine.applyCommands(T0);
        String forged = "forged";
        assertEquals(ForwardingEngine.SOURCE_TIME_AHEAD, engine.forward(7, T0 + 3_600 * S, 0, forged, 260, T0, T0));
        assertEquals(ForwardingEngine.SOURCE_TIME_STALE, engine.forward(7, T0 - 3_600 * S, 0, forged, 260, T0, T0));
        SampleGrid sixty = SampleGrid.ofRate(60);
        List<String> onA = new java.util.ArrayList<>();
        List<String> onB = new java.util.ArrayList<>();
        long t = T0 + S; // a whole second: a point of every grid
        for (int i = 0; i < 300; i++, t = sixty.next(t)) {
            String ev = "s" + i;
            refs.retain(ev);
            engine.forward(7, t, t + 50_000_000L, ev, 260, t, t);
            refs.release(ev);
            drain(0, t, onA);
            drain(1, t, onB);
        }
        assertEquals(300, onB.size(), "every on-time sample passes the 60 Hz link");
        assertEquals(150, onA.size(), "and one in two the 30 Hz link");
        ForwardingCounters c = engine.counters();
        assertEquals(1, c.get(EngineCounter.SOURCE_TIME_AHEAD));
        assertEquals(1, c.get(EngineCounter.SOURCE_TIME_STALE));
        assertEquals(0, refs.outstanding());
    }

    @Test
    void aDeadlineNearTheEndOfTimeNeitherWrapsNorLivesForever() {
        engine.submit(FlowCommand.install(flow(1, 1, 7, 0, ServiceClass.HRT)));
        engine.applyCommands(T0);
        refs.retain("ancient");
        // Deadline Long.MIN_VALUE + 1 less a 5 ms budget must stay in the past, not wrap to "never".
        assertEquals(1, engine.forward(7, T0, Long.MIN_VALUE + 1, "ancient", 260, T0, T0));
        refs.release("ancient");
        assertNull(engine.dequeue(0, T0), "already expired: dropped at the head");
        assertEquals(1, engine.statistics(0).flow(1).queue().deadlineMisses());
        refs.retain("far");
        assertEquals(1, engine.forward(7, T0, Long.MAX_VALUE, "far", 260, T0, T0));
        refs.release("far");
        List<String> sent = new java.util.ArrayList<>();
        drain(0, T0 + 3_600 * S, sent);
        assertEquals(List.of("far"), sent, "a deadline at the end of time never expires and never overflows");
        assertEquals(0, refs.outstanding());
    }

    @Test
    void aSecondFlowOfAVariableOnTheSameLinkIsRefused() {
        engine.submit(FlowCommand.install(flow(1, 1, 7, 0, ServiceClass.HRT, 60)));
        engine.submit(FlowCommand.install(flow(2, 1, 7, 0, ServiceClass.BE, 20)));
        engine.submit(FlowCommand.install(flow(3, 1, 7, 1, ServiceClass.BE, 20)));
        engine.applyCommands(T0);
        assertEquals(1, engine.counters().commandsRejected());
        assertTrue(engine.lastRejection().contains("already has flow 1 on out-link 0"), engine.lastRejection());
        refs.retain("x");
        assertEquals(2, engine.forward(7, T0, 0, "x", 260, T0, T0), "one copy per link, whatever was asked");
        refs.release("x");
        // Moving the flow's variable is a change of the same flow, not a second one.
        engine.submit(FlowCommand.install(flow(1, 2, 7, 0, ServiceClass.LRT, 60)));
        engine.applyCommands(T0);
        assertEquals(1, engine.counters().commandsRejected());
        drain(0, T0, new java.util.ArrayList<>());
        drain(1, T0, new java.util.ArrayList<>());
        assertEquals(0, refs.outstanding());
    }

    @Test
    void rememberedRemovalsAreBoundedAndKeepTheMostRecent() {
        RemovedVersions r = new RemovedVersions(3);
        for (long id = 1; id <= 5; id++) {
            r.remember(id, 10 + id);
        }
        assertEquals(3, r.size(), "bounded");
        assertEquals(0, r.versionOf(1), "the oldest are forgotten");
        assertEquals(0, r.versionOf(2));
        assertEquals(15, r.versionOf(5));
        r.forget(4);
        r.remember(4, 40); // re-remembered: its older ring entry must not evict it
        r.remember(6, 16);
        r.remember(7, 17);
        assertEquals(40, r.versionOf(4), "the newer removal of flow 4 survives its older entry's eviction");
    }

    @Test
    void aFullCommandQueueRefusesInsteadOfGrowing() {
        ForwardingEngine<String> small = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(10_000_000)), 16, refs,
                EstimatorSettings.DEFAULT, SourceTimeTrust.DEFAULT, 2, T0);
        assertTrue(small.submit(FlowCommand.remove(1, 1)));
        assertTrue(small.submit(FlowCommand.remove(2, 1)));
        assertFalse(small.submit(FlowCommand.remove(3, 1)), "the third does not fit");
        assertEquals(1, small.applyCommands(T0, 1), "a limit per call");
        assertTrue(small.submit(FlowCommand.remove(3, 1)), "room again");
    }
}
