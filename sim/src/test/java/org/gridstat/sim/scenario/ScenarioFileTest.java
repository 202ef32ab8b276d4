package org.gridstat.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.net.LinkModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scenario file read into a {@link Scenario}, and each kind of mistake in one named by field and line. */
class ScenarioFileTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /** Every section and field once; the line numbers below count from its first line. */
    static final String FULL = """
            name: two-hops
            duration: 10s
            report: 500ms
            seed: 7
            admission: bandwidth-only
            topology:
              routers:
                - {id: r1, capacity: 100000}
                - {id: r2, capacity: 100000}
                - {id: r3, capacity: 100000}
              links:
                - {between: [r1, r2], bandwidth: 125000, delay: 5ms}
                - {between: [r2, r3], bandwidth: 125000, delay: 5ms}
            links:
              r1->r2: {discipline: datagram-fifo, queue: 50, loss: 0.01, burstLoss: {enterBad: 0.01, leaveBad: 0.5, lossInBad: 0.9}}
              r2->r3: {outageEvery: 20s, outageFor: 100ms, mtu: 576, delay: 7ms}
              r3/cc: {capacity: 1250000}
            variables:
              - name: sub1/pmu1/freq
                router: r1
                bytes: 260
                rate: 60
                class: HRT
                group: sub1
                start: 1ms
                jitter: 100us
                deadline: 50ms
                clockOffset: -2ms
              - {name: sub1/app, router: r1, bytes: 1000, interval: 100ms, class: be}
            subscriptions:
              - {label: cc, variable: sub1/pmu1/freq, router: r3, link: cc, rate: 30, latency: 50ms}
              - {label: cc-be, variable: sub1/app, router: r3, link: cc, latency: 1s, at: 2s, paths: 1}
            raw:
              - {label: flood, router: r1, link: r2, sizes: [1400, 2900], rate: 100, poisson: true, start: 1s, stop: 8s, buffer: 20}
            timeline:
              - {at: 3s, variable: sub1/pmu1/freq, rate: 120}
              - {at: 4s, raw: flood, interval: 5ms}
              - {at: 5s, cut: r1->r2}
              - {at: 6s, restore: r1->r2}
              - {at: 7s, crash: r2}
              - {at: 8s, restart: r2}
              - {at: 9s, unsubscribe: cc-be}
            """;

    @TempDir
    Path dir;

    private static Scenario parse(String text, Map<String, String> overrides) {
        return ScenarioFile.parse(text, "s.yaml", Path.of("."), "s", overrides);
    }

    private static Scenario parse(String text) {
        return parse(text, Map.of());
    }

    private static void assertError(String expected, String text) {
        assertError(expected, text, Map.of());
    }

    private static void assertError(String expected, String text, Map<String, String> overrides) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(text, overrides));
        assertEquals(expected, e.getMessage());
    }

    private static String replace(String what, String with) {
        assertTrue(FULL.contains(what), what);
        return FULL.replace(what, with);
    }

    private static Map<String, String> set(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @Test
    void readsEverySectionAndField() {
        Scenario s = parse(FULL);
        assertEquals("two-hops", s.name());
        assertEquals(10 * S, s.durationNanos());
        assertEquals(500 * MS, s.reportIntervalNanos());
        assertEquals(7, s.seed());
        assertEquals(Scenario.Admission.BANDWIDTH_ONLY, s.admission());
        assertEquals(3, s.topology().routers().size());
        assertEquals(125_000, s.topology().link("r2", "r3").bandwidth());

        assertEquals(new LinkModel(125_000, 5 * MS, 1500, 50, LinkModel.Discipline.DATAGRAM_FIFO, 0.01,
                new LinkModel.BurstLoss(0.01, 0.5, 0.9), 0, 0), s.links().get("r1->r2"));
        assertEquals(new LinkModel(125_000, 7 * MS, 576, 64, LinkModel.Discipline.SCHEDULER, 0, LinkModel.BurstLoss.NONE,
                20 * S, 100 * MS), s.links().get("r2->r3"), "what is not given comes from the topology and LinkModel");
        assertEquals(LinkModel.of(1_250_000, 0), s.links().get("r3/cc"));
        assertEquals(3, s.links().size());

        assertEquals(List.of(
                new Scenario.Variable("sub1/pmu1/freq", "r1", 260, 16_666_667, ServiceClass.HRT, "sub1", MS, 100_000,
                        50 * MS, -2 * MS),
                new Scenario.Variable("sub1/app", "r1", 1000, 100 * MS, ServiceClass.BE, "", 0, 0, 0, 0)), s.variables());

        Scenario.Subscription cc = s.subscriptions().get(0);
        assertEquals("cc", cc.label());
        assertEquals("sub1/pmu1/freq", cc.variable());
        assertEquals("r3", cc.router());
        assertEquals("cc", cc.link());
        assertEquals(33_333_333, cc.qos().intervalNanos());
        assertEquals(50 * MS, cc.qos().latencyBoundNanos());
        assertEquals(ServiceClass.HRT, cc.qos().serviceClass(), "the variable's class unless given");
        assertEquals(1, cc.qos().paths());
        assertEquals(0, cc.atNanos());
        Scenario.Subscription be = s.subscriptions().get(1);
        assertEquals(100 * MS, be.qos().intervalNanos(), "the variable's rate unless given");
        assertEquals(2 * S, be.atNanos());

        assertEquals(List.of(new Scenario.RawSource("flood", "r1", "r2", List.of(1400, 2900), 10 * MS, true, S, 8 * S, 20)),
                s.rawSources());
        assertEquals(List.of(new Scenario.RateChange(3 * S, "sub1/pmu1/freq", 8_333_333),
                new Scenario.RawRateChange(4 * S, "flood", 5 * MS),
                new Scenario.LinkState(5 * S, "r1->r2", false),
                new Scenario.LinkState(6 * S, "r1->r2", true),
                new Scenario.RouterState(7 * S, "r2", false),
                new Scenario.RouterState(8 * S, "r2", true),
                new Scenario.Unsubscribe(9 * S, "cc-be")), s.timeline());
    }

    @Test
    void theAnnotatedExampleOfTheDocsIsAValidScenario() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "simulator.md"));
        int start = doc.indexOf("```yaml\n", doc.indexOf("Every key, annotated:")) + "```yaml\n".length();
        String example = doc.substring(start, doc.indexOf("```", start));
        Scenario s = parse(example, set("topology", "{routers: [{id: r1, capacity: 1000}, {id: r2, capacity: 1000},"
                + " {id: r3, capacity: 1000}], links: [{between: [r1, r2], bandwidth: 250000, delay: 5ms},"
                + " {between: [r2, r3], bandwidth: 250000, delay: 5ms}]}"));
        assertEquals("ccc-testbed", s.name());
        assertEquals(7, s.timeline().size());
        assertEquals(new LinkModel(247_500, 5 * MS, 1500, 50, LinkModel.Discipline.DATAGRAM_FIFO, 0.001,
                new LinkModel.BurstLoss(0.01, 0.3, 0.8), 60 * S, 200 * MS, LinkModel.Framing.ATM, 12_500_000),
                s.links().get("r1->r2"));
    }

    @Test
    void theCongestionSectionSetsTheRoutersControlTheirEstimatorAndTheBrokersRates() {
        String base = """
                duration: 2s
                topology:
                  routers: [{id: r1, capacity: 1000}]
                  links: []
                """;
        assertEquals(Scenario.Congestion.OFF, parse(base).congestion());
        Scenario.Congestion c = parse(base + """
                congestion:
                  control: on
                  period: 100ms
                  weight: 0.75
                  minimum: {lrt: 40%, be: 0.115}
                  ceiling: {hrt: 4}
                """).congestion();
        assertTrue(c.control());
        assertEquals(100 * MS, c.estimator().periodNanos());
        assertEquals(0.75, c.estimator().weight());
        assertEquals(FlowRates.DEFAULT.with(ServiceClass.HRT, 1.0, 4.0).with(ServiceClass.LRT, 0.4, 2.0)
                .with(ServiceClass.BE, 0.115, 2.0), c.rates());
        assertTrue(c.notices(), "notices come with control unless turned off");
        assertEquals(Scenario.Congestion.NO_ADAPTATION, c.adaptationDelayNanos());
        Scenario.Congestion local = parse(base + "congestion:\n  control: on\n  notices: off\n  adaptation: 200ms\n")
                .congestion();
        assertTrue(!local.notices());
        assertEquals(200 * MS, local.adaptationDelayNanos());
        assertError("s.yaml line 6: congestion.notices: congestion notices need congestion control: set control to on,"
                + " or notices to off", base + "congestion:\n  notices: on\n");
        assertError("s.yaml line 6: congestion.adaptation: global adaptation answers congestion control's alarms: set"
                + " control to on", base + "congestion:\n  adaptation: 1s\n");
        assertError("s.yaml line 6: congestion.period: must be at least 10ms, got 5ms", base + "congestion:\n  period: 5ms\n");
        assertError("s.yaml line 6: congestion.minimum.be: must be 0..100 %, got 120%",
                base + "congestion:\n  minimum: {be: 120%}\n");
        assertError("s.yaml line 6: congestion.ceiling.hrt: must be 1..1000 times the assured rate, got 0.5",
                base + "congestion:\n  ceiling: {hrt: 0.5}\n");
        assertError("s.yaml line 6: congestion.weight: must be in (0, 1], got 0.0", base + "congestion:\n  weight: 0\n");
        assertError("s.yaml line 6: congestion.minimum.lrt: '1' is ambiguous: write a percentage such as 1% or a fraction"
                + " such as 0.5", base + "congestion:\n  minimum: {lrt: 1}\n");
    }

    @Test
    void whatIsNotGivenTakesItsDefault() {
        Scenario s = parse("""
                duration: 2s
                topology:
                  routers: [{id: r1, capacity: 1000}]
                  links: []
                """);
        assertEquals("s", s.name(), "the file's name");
        assertEquals(S, s.reportIntervalNanos());
        assertEquals(1, s.seed());
        assertEquals(Scenario.Admission.FULL, s.admission());
        assertTrue(s.links().isEmpty() && s.variables().isEmpty() && s.subscriptions().isEmpty()
                && s.rawSources().isEmpty() && s.timeline().isEmpty());
        Scenario.RawSource raw = parse(FULL.replace(", stop: 8s, buffer: 20", "")).rawSources().get(0);
        assertEquals(0, raw.stopNanos(), "no stop");
        assertEquals(ScenarioFile.DEFAULT_RAW_BUFFER, raw.bufferDatagrams());
    }

    @Test
    void aDeliveryLinkTakesTheCapacityItsTopologyDeclares() {
        Scenario s = parse("""
                duration: 1s
                topology:
                  routers:
                    - id: r1
                      capacity: 1000
                      delivery: [{name: ops, address: 127.0.0.1:9000, capacity: 250000}]
                  links: []
                links:
                  r1/ops: {queue: 8}
                """);
        assertEquals(new LinkModel(250_000, 0, 1500, 8, LinkModel.Discipline.SCHEDULER, 0, LinkModel.BurstLoss.NONE, 0, 0),
                s.links().get("r1/ops"));
        assertEquals(Simulation.DELIVERY_CAPACITY, parse(FULL.replace("r3/cc: {capacity: 1250000}", "r3/cc: {queue: 9}"))
                .links().get("r3/cc").capacity(), "an undeclared one: the simulator's delivery capacity");
    }

    @Test
    void theTopologyMayBeAFileBesideTheScenario() throws IOException {
        Files.writeString(dir.resolve("net.yaml"), """
                routers:
                  - {id: r1, capacity: 100000}
                  - {id: r2, capacity: 100000}
                links:
                  - {between: [r1, r2], bandwidth: 125000, delay: 5ms}
                """);
        Path file = Files.writeString(dir.resolve("line.yaml"), """
                duration: 1s
                topology: net.yaml
                links:
                  r1->r2: {discipline: fifo}
                """);
        Scenario s = ScenarioFile.load(file);
        assertEquals("line", s.name());
        assertEquals(LinkModel.of(125_000, 5 * MS).withDiscipline(LinkModel.Discipline.FIFO, 64), s.links().get("r1->r2"));

        Files.writeString(dir.resolve("net.yaml"), "routers:\n  - {id: r1, capacity: 1}\nlinks:\n  - {from: r1, to: r7, bandwidth: 1}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioFile.load(file));
        assertEquals(dir.resolve("net.yaml") + " line 4: no router 'r7'", e.getMessage(), "the topology file's own line");

        Files.writeString(file, "duration: 1s\ntopology: nowhere.yaml\n");
        e = assertThrows(IllegalArgumentException.class, () -> ScenarioFile.load(file));
        assertEquals(file + " line 2: topology: no topology file 'nowhere.yaml' (looked for " + dir.resolve("nowhere.yaml")
                + ")", e.getMessage());
    }

    @Test
    void unknownKeysWrongTypesAndMissingFieldsNameFieldAndLine() {
        assertError("s.yaml line 28: variables[0].clockOfset: unknown key (known: name, router, bytes, rate, interval,"
                + " class, group, start, jitter, deadline, clockOffset)", replace("clockOffset: -2ms", "clockOfset: -2ms"));
        assertError("s.yaml line 1: colour: unknown key (known: name, duration, report, seed, admission, congestion, topology, links,"
                + " variables, subscriptions, raw, timeline)", "colour: red\n" + FULL);
        assertError("s.yaml line 15: links.r1->r2.burstLoss.enterBadly: unknown key (known: enterBad, leaveBad, lossInBad)",
                replace("enterBad: 0.01", "enterBadly: 0.01"));
        assertError("s.yaml line 3: report: given twice (first on s.yaml line 2)", "duration: 1s\nreport: 1s\nreport: 2s\n");
        assertError("s.yaml line 2: duration: expected a single value, not a list", replace("duration: 10s", "duration: [10s]"));
        assertError("s.yaml line 21: variables[0].bytes: 'big' is not a whole number", replace("bytes: 260", "bytes: big"));
        assertError("s.yaml line 34: raw[0].poisson: 'yes' is neither true (on) nor false (off)", replace("poisson: true", "poisson: yes"));
        assertError("s.yaml line 15: links.r1->r2.loss: 'lots' is not a number", replace("loss: 0.01", "loss: lots"));
        assertError("s.yaml line 3: variables: expected a list",
                "duration: 1s\ntopology: {routers: [{id: r1, capacity: 1}], links: []}\nvariables: none\n");
        assertError("s.yaml line 23: variables[0].class: 'CONTROL' is not one of HRT, LRT, BE",
                replace("class: HRT", "class: CONTROL"));
        assertError("s.yaml line 15: links.r1->r2.discipline: 'red' is not one of scheduler, fifo, datagram-fifo",
                replace("discipline: datagram-fifo", "discipline: red"));
        assertError("s.yaml line 15: links.r1->r2.framing: 'cells' is not one of ip, atm",
                replace("discipline: datagram-fifo", "discipline: datagram-fifo, framing: cells"));
        assertError("s.yaml line 15: links.r1->r2.accessRate: must be at least 0, got -1",
                replace("discipline: datagram-fifo", "discipline: datagram-fifo, accessRate: -1"));
        assertError("s.yaml line 15: links.r1->r2.accessRate: must be 0 (fragments together) or at least 1000 B/s, got 999",
                replace("discipline: datagram-fifo", "discipline: datagram-fifo, accessRate: 999"));
        assertError("s.yaml line 5: admission: 'strict' is not one of full, bandwidth-only",
                replace("admission: bandwidth-only", "admission: strict"));
        assertError("s.yaml line 19: variables[0].router: missing (required)", replace("    router: r1\n", ""));
        assertError("s.yaml line 31: subscriptions[0].latency: missing (required)", replace(", latency: 50ms}", "}"));
        assertError("s.yaml line 29: variables[1].rate: missing (required): rate (Hz) or interval",
                replace(", interval: 100ms", ""));
        assertError("s.yaml line 1: duration: missing (required)", replace("duration: 10s\n", ""));
        assertError("s.yaml line 1: topology: missing (required): a topology file, or the topology inline",
                "duration: 1s\n");
        assertError("s.yaml: empty; a scenario needs at least a duration and a topology", "");
        assertError("s.yaml line 31: subscriptions[0].interval: give rate or interval, not both",
                replace("rate: 30,", "rate: 30, interval: 20ms,"));
    }

    @Test
    void outOfRangeValuesNameFieldAndLine() {
        assertError("s.yaml line 25: variables[0].start: duration '-1ms' must be a non-negative number",
                replace("start: 1ms", "start: -1ms"));
        assertError("s.yaml line 2: duration: must be above zero", replace("duration: 10s", "duration: 0s"));
        assertError("s.yaml line 2: duration: duration '10' needs a unit: ms, us, ns or s", replace("duration: 10s", "duration: 10"));
        assertError("s.yaml line 21: variables[0].bytes: must be 48..1472, got 2000", replace("bytes: 260", "bytes: 2000"));
        assertError("s.yaml line 21: variables[0].bytes: must be 48..1472, got 47", replace("bytes: 260", "bytes: 47"));
        assertError("s.yaml line 34: raw[0].sizes[1]: a UDP payload is 1..65507 bytes, got 65508",
                replace("sizes: [1400, 2900]", "sizes: [1400, 65508]"));
        assertError("s.yaml line 34: raw[0].sizes: missing (required): a list of UDP payload sizes in bytes, sent in turn",
                replace("sizes: [1400, 2900]", "sizes: []"));
        assertError("s.yaml line 34: raw[0].stop: must be after start (1s), got 500ms", replace("stop: 8s", "stop: 500ms"));
        assertError("s.yaml line 26: variables[0].jitter: must be below the interval (16.666667ms), got 20ms",
                replace("jitter: 100us", "jitter: 20ms"));
        assertError("s.yaml line 22: variables[0].rate: must be above zero Hz, got -60.0", replace("rate: 60", "rate: -60"));
        assertError("s.yaml line 31: subscriptions[0].rate: a subscription's interval is 1 ms..1 h (1000 Hz to one an hour),"
                + " got 0.5ms", replace("rate: 30,", "rate: 2000,"));
        assertError("s.yaml line 31: subscriptions[0].latency: a latency bound is 1 ms..60 s, got 0.5ms",
                replace("latency: 50ms}", "latency: 500us}"));
        assertError("s.yaml line 32: subscriptions[1].paths: must be 1..4, got 5", replace("paths: 1}", "paths: 5}"));
        assertError("s.yaml line 15: links.r1->r2.loss: must be a probability in 0..1, got 1.5", replace("loss: 0.01", "loss: 1.5"));
        assertError("s.yaml line 16: links.r2->r3.mtu: must be 576..65535, got 100", replace("mtu: 576", "mtu: 100"));
        assertError("s.yaml line 16: links.r2->r3.outageFor: outages need both outageEvery (mean time between) and"
                + " outageFor (mean duration), above zero, or neither", replace("outageFor: 100ms, ", ""));
        assertError("s.yaml line 15: links.r1->r2.burstLoss.leaveBad: a link that turns bad must be able to leave it: above 0",
                replace("leaveBad: 0.5", "leaveBad: 0"));
        assertError("s.yaml line 1: name: 'two hops' must be 1..64 letters, digits, '.', '_' or '-' (it names the output"
                + " folder)", replace("name: two-hops", "name: two hops"));
        assertError("s.yaml line 29: variables[1].name: variable 'sub1/pmu1/freq' is declared twice",
                replace("{name: sub1/app,", "{name: sub1/pmu1/freq,"));
        assertError("s.yaml line 29: variables[1].name: variable name 'sub1//app' has an empty segment at position 2",
                replace("{name: sub1/app,", "{name: sub1//app,"));
        assertError("s.yaml line 36: timeline[0].rate: the interval (0.05ms) must stay above the variable's jitter (0.1ms)",
                replace("rate: 120}", "rate: 20000}"));
    }

    @Test
    void referencesToWhatTheScenarioDoesNotHaveNameFieldAndLine() {
        assertError("s.yaml line 20: variables[0].router: no router 'r9' in the topology (routers: r1, r2, r3)",
                replace("    router: r1\n", "    router: r9\n"));
        assertError("s.yaml line 31: subscriptions[0].router: no router 'r9' in the topology (routers: r1, r2, r3)",
                replace("router: r3, link: cc, rate: 30", "router: r9, link: cc, rate: 30"));
        assertError("s.yaml line 31: subscriptions[0].variable: no variable 'pmu9' (declared: sub1/pmu1/freq, sub1/app)",
                replace("variable: sub1/pmu1/freq, router: r3", "variable: pmu9, router: r3"));
        assertError("s.yaml line 31: subscriptions[0].link: 'r2' is router r3's link to router r2, not a delivery link to"
                + " subscribers", replace("router: r3, link: cc, rate: 30", "router: r3, link: r2, rate: 30"));
        assertError("s.yaml line 32: subscriptions[1].label: subscription 'cc' is given twice; labels name subscriptions in"
                + " the outputs and the timeline", replace("label: cc-be,", "label: cc,"));
        assertError("s.yaml line 34: raw[0].link: router r1 has no out-link 'r3' (its out-links: r2)",
                replace("router: r1, link: r2,", "router: r1, link: r3,"));
        assertError("s.yaml line 15: links.r1->r3: no link 'r1->r3': a link is 'a->b' for a topology link or 'router/name'"
                + " for a delivery link (links: r1->r2, r2->r1, r2->r3, r3->r2, r3/cc)", replace("  r1->r2: {", "  r1->r3: {"));
        assertError("s.yaml line 17: links.r2/cc: no link 'r2/cc': a link is 'a->b' for a topology link or 'router/name'"
                + " for a delivery link (links: r1->r2, r2->r1, r2->r3, r3->r2, r3/cc)", replace("  r3/cc: {", "  r2/cc: {"));
        assertError("s.yaml line 36: timeline[0].variable: no variable 'pmu9' (declared: sub1/pmu1/freq, sub1/app)",
                replace("{at: 3s, variable: sub1/pmu1/freq", "{at: 3s, variable: pmu9"));
        assertError("s.yaml line 37: timeline[1].raw: no raw source 'fld' (raw sources: flood)", replace("raw: flood", "raw: fld"));
        assertError("s.yaml line 38: timeline[2].cut: no link 'r1->r3' (links: r1->r2, r2->r1, r2->r3, r3->r2, r3/cc)",
                replace("cut: r1->r2", "cut: r1->r3"));
        assertError("s.yaml line 40: timeline[4].crash: no router 'r7' in the topology (routers: r1, r2, r3)",
                replace("crash: r2", "crash: r7"));
        assertError("s.yaml line 42: timeline[6].unsubscribe: no subscription 'cc-lrt' (subscriptions: cc, cc-be)",
                replace("unsubscribe: cc-be", "unsubscribe: cc-lrt"));
        assertError("s.yaml line 38: timeline[2]: a timeline entry does exactly one of: variable, raw, cut, restore, crash,"
                + " restart, unsubscribe; this one gives cut, crash", replace("cut: r1->r2}", "cut: r1->r2, crash: r2}"));
        assertError("s.yaml line 38: timeline[2].rate: a rate goes with 'variable' or 'raw', not 'cut'",
                replace("cut: r1->r2}", "cut: r1->r2, rate: 5}"));
        assertError("s.yaml line 38: timeline[2].at: missing (required)", replace("{at: 5s, cut: r1->r2}", "{cut: r1->r2}"));
    }

    @Test
    void anInlineTopologyNamesItsLinesInTheScenarioFile() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(replace("bandwidth: 125000, delay: 5ms}\n    - {between: [r2", "bandwith: 125000, delay: 5ms}\n"
                        + "    - {between: [r2")));
        assertTrue(e.getMessage().startsWith("s.yaml line 12: unknown key 'bandwith' (known: "), e.getMessage());
        assertError("s.yaml line 13: no router 'r4'", replace("{between: [r2, r3]", "{between: [r2, r4]"));
    }

    @Test
    void overridesChangeTheTreeBeforeItIsRead() {
        Scenario s = parse(FULL, set("duration", "2s", "links.r1->r2.discipline", "fifo", "subscriptions.0.rate", "10",
                "subscriptions.cc-be.at", "1s", "subscriptions.0.paths", "2", "variables.sub1/pmu1/freq.jitter", "0",
                "links.r3/cc", "{queue: 5}", "raw.flood.sizes", "[100]", "seed", "99"));
        assertEquals(2 * S, s.durationNanos());
        assertEquals(LinkModel.Discipline.FIFO, s.links().get("r1->r2").discipline());
        assertEquals(50, s.links().get("r1->r2").queuePackets(), "the rest of the link as the file gives it");
        assertEquals(100 * MS, s.subscriptions().get(0).qos().intervalNanos());
        assertEquals(2, s.subscriptions().get(0).qos().paths(), "a key the entry did not have is added");
        assertEquals(S, s.subscriptions().get(1).atNanos());
        assertEquals(0, s.variables().get(0).jitterNanos());
        assertEquals(5, s.links().get("r3/cc").queuePackets());
        assertEquals(Simulation.DELIVERY_CAPACITY, s.links().get("r3/cc").capacity(), "the whole entry is replaced");
        assertEquals(List.of(100), s.rawSources().get(0).sizes());
        assertEquals(99, s.seed());
        Scenario emptied = parse(FULL, set("subscriptions.0.rate", "", "subscriptions.0.interval", "20ms"));
        assertEquals(20 * MS, emptied.subscriptions().get(0).qos().intervalNanos(), "an empty value takes the rate out");
    }

    @Test
    void anOverrideMatchesKeysAndNamesThatHoldDots() {
        String dotted = """
                duration: 1s
                topology:
                  routers: [{id: r1.a, capacity: 1000}, {id: r2.b, capacity: 1000}]
                  links: [{between: [r1.a, r2.b], bandwidth: 125000}]
                links:
                  r1.a->r2.b: {mtu: 1500}
                """;
        assertEquals(600, parse(dotted, set("links.r1.a->r2.b.mtu", "600")).links().get("r1.a->r2.b").mtu());
    }

    @Test
    void anOverrideOfAPathThatIsNotThereIsAnErrorNamingIt() {
        assertError("s.yaml: --set subscriptions.5.rate=1: 'subscriptions' has 2 entries, so no entry 5 (they count from 0)",
                FULL, set("subscriptions.5.rate", "1"));
        assertError("s.yaml: --set subscriptions.ops.rate=1: 'subscriptions' has no entry ops (give an index from 0, or an"
                + " entry's label or name)", FULL, set("subscriptions.ops.rate", "1"));
        assertError("s.yaml: --set links.r9->r1.mtu=600: 'links' has no 'r9->r1' (it has: r1->r2, r2->r3, r3/cc)", FULL,
                set("links.r9->r1.mtu", "600"));
        assertError("s.yaml: --set duration.unit=s: 'duration' is a single value, so it has no 'unit'", FULL,
                set("duration.unit", "s"));
        assertError("s.yaml: --set nosuch.x=1: the scenario has no 'nosuch' (it has: name, duration, report, seed, admission,"
                + " topology, links, variables, subscriptions, raw, timeline)", FULL, set("nosuch.x", "1"));
        assertError("s.yaml: --set links..mtu=1: 'links..mtu' is not a dotted path such as duration or links.r1->r2.mtu",
                FULL, set("links..mtu", "1"));
    }

    @Test
    void aBadOverrideValueIsNamedByTheOverride() {
        assertError("s.yaml: --set duration=-5s: duration: duration '-5s' must be a non-negative number", FULL,
                set("duration", "-5s"));
        assertError("s.yaml: --set colour=red: colour: unknown key (known: name, duration, report, seed, admission, congestion, topology,"
                + " links, variables, subscriptions, raw, timeline)", FULL, set("colour", "red"));
        assertError("s.yaml: --set subscriptions.0.variable=pmu9: subscriptions[0].variable: no variable 'pmu9' (declared:"
                + " sub1/pmu1/freq, sub1/app)", FULL, set("subscriptions.0.variable", "pmu9"));
        assertError("s.yaml: --set links.r1->r2={queue: 0}: links.r1->r2.queue: must be 1..65536, got 0", FULL,
                set("links.r1->r2", "{queue: 0}"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(FULL, set("topology.links.0.bandwidth", "lots")));
        assertEquals("s.yaml: --set topology.links.0.bandwidth=lots: bandwidth 'lots' is not a whole number", e.getMessage(),
                "the inline topology's errors too");
    }
}
