package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Whatever a management client sends as a body, each parser returns a validated order or a
 * {@link RequestParser.BadRequest} with a message; nothing else escapes. Seed corpus in the
 * resources folder of the same name.
 */
class RequestParserFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void parseArbitraryBodies(byte[] body) {
        try {
            RequestParser.SubscriptionOrder o = RequestParser.subscription(body);
            assertNotNull(o.qos());
            assertNotNull(o.variable());
        } catch (RequestParser.BadRequest e) {
            assertNotNull(e.getMessage());
        }
        try {
            RequestParser.Declaration d = RequestParser.declaration(body);
            assertTrue(d.intervalNanos() > 0);
            assertTrue(d.frameBytes() >= 48 && d.frameBytes() <= 1472);
        } catch (RequestParser.BadRequest e) {
            assertNotNull(e.getMessage());
        }
        try {
            assertNotNull(RequestParser.modification(body, 7));
        } catch (RequestParser.BadRequest e) {
            assertNotNull(e.getMessage());
        }
        try {
            org.gridstat.core.management.GatewayReportDocument r = DeviceReportParser.report(body);
            assertTrue(r.periodMs() >= 100 && r.periodMs() <= 600_000);
            assertTrue(r.devices().size() <= 1_000);
            r.devices().forEach(d -> assertTrue(org.gridstat.broker.topology.Names.valid(d.name())));
        } catch (RequestParser.BadRequest e) {
            assertNotNull(e.getMessage());
        }
    }
}
