package org.gridstat.core.model;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void variableNamesAreHierarchical() {
        VariableName n = VariableName.of("utilityA/sub3/pmu1/freq");
        assertArrayEquals(new String[] {"utilityA", "sub3", "pmu1", "freq"}, n.segments());
        assertEquals("utilityA/sub3/pmu1/freq", n.toString());
        assertEquals(n, VariableName.of("utilityA/sub3/pmu1/freq"));
    }

    @Test
    void badVariableNamesSayWhatIsWrong() {
        assertEquals("variable name is empty",
                assertThrows(IllegalArgumentException.class, () -> VariableName.of("")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VariableName.of("a//b")).getMessage()
                .contains("empty segment at position 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VariableName.of("a/b c")).getMessage()
                .contains("segment 'b c'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VariableName.of("x".repeat(256))).getMessage()
                .contains("256 characters"));
    }

    @Test
    void variableIdsParseDecimalAndHexAndRejectZero() {
        assertEquals(255L, VariableId.parse("0xff").value());
        assertEquals(-1L, VariableId.parse("18446744073709551615").value());
        assertEquals("18446744073709551615", VariableId.of(-1L).toString());
        assertThrows(IllegalArgumentException.class, () -> VariableId.of(0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VariableId.parse("12a")).getMessage()
                .contains("not an unsigned 64-bit number"));
    }

    @Test
    void endpointsParseHostPortAndBracketedIpv6() {
        Endpoint e = Endpoint.parse("127.0.0.1:9470");
        assertEquals("127.0.0.1", e.host());
        assertEquals(9470, e.port());
        Endpoint v6 = Endpoint.parse("[::1]:9471");
        assertEquals("::1", v6.host());
        assertEquals("[::1]:9471", v6.toString());
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("::1:9471"));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("host"));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("host:70000"));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("host:abc"));
    }

    @Test
    void durationsNeedAUnit() {
        assertEquals(10_000_000L, DurationText.nanos("10ms"));
        assertEquals(250_000L, DurationText.nanos("250us"));
        assertEquals(2_500_000_000L, DurationText.nanos(" 2.5s "));
        assertEquals(500L, DurationText.nanos("500ns"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DurationText.nanos("10")).getMessage()
                .contains("needs a unit"));
        assertThrows(IllegalArgumentException.class, () -> DurationText.nanos("-5ms"));
        assertThrows(IllegalArgumentException.class, () -> DurationText.nanos("fastms"));
    }

    @Test
    void serviceClassCodesRoundTrip() {
        for (ServiceClass c : ServiceClass.values()) {
            assertSame(c, ServiceClass.fromCode(c.code()));
        }
        assertNull(ServiceClass.fromCode(4));
        assertNull(ServiceClass.fromCode(-1));
    }
}
