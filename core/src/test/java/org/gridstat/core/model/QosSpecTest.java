package org.gridstat.core.model;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class QosSpecTest {
    @Test
    void buildsAValidSpecAndDerivesTheRate() {
        QosSpec q = QosSpec.builder().rateHz(30).latencyBound(Duration.ofMillis(50)).paths(2)
                .serviceClass(ServiceClass.HRT).correlationGroup("utilityA/sub3").build();
        assertEquals(33_333_333L, q.intervalNanos());
        assertEquals(30.0, q.rateHz(), 1e-6);
        assertEquals(50_000_000L, q.latencyBoundNanos());
        assertEquals(2, q.paths());
        assertEquals(ServiceClass.HRT, q.serviceClass());
        assertEquals("utilityA/sub3", q.correlationGroup());
    }

    @Test
    void defaultsToOnePathBestEffortNoGroup() {
        QosSpec q = QosSpec.builder().interval(Duration.ofMillis(100)).latencyBound(Duration.ofSeconds(1)).build();
        assertEquals(1, q.paths());
        assertEquals(ServiceClass.BE, q.serviceClass());
        assertEquals("", q.correlationGroup());
    }

    @Test
    void listsEveryProblemAtOnce() {
        InvalidQosException e = assertThrows(InvalidQosException.class, () -> QosSpec.builder()
                .interval(Duration.ofNanos(10)).latencyBound(Duration.ofMinutes(5)).paths(0)
                .serviceClass(ServiceClass.CONTROL).correlationGroup("bad group!").build());
        assertEquals(5, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("interval PT0.00000001S is outside"), e.getMessage());
        assertTrue(e.getMessage().contains("latency bound PT5M is outside"), e.getMessage());
        assertTrue(e.getMessage().contains("paths must be between 1 and 4, got 0"), e.getMessage());
        assertTrue(e.getMessage().contains("CONTROL is reserved"), e.getMessage());
        assertTrue(e.getMessage().contains("correlation group 'bad group!'"), e.getMessage());
    }

    @Test
    void requiresIntervalAndLatencyBound() {
        InvalidQosException e = assertThrows(InvalidQosException.class, () -> QosSpec.builder().build());
        assertEquals(2, e.problems().size());
        assertTrue(e.problems().get(0).contains("interval (or rate) is required"));
        assertTrue(e.problems().get(1).contains("latency bound is required"));
    }

    @Test
    void rejectsNonPositiveRates() {
        assertThrows(InvalidQosException.class, () -> QosSpec.builder().rateHz(0));
        assertThrows(InvalidQosException.class, () -> QosSpec.builder().rateHz(-5));
        assertThrows(InvalidQosException.class, () -> QosSpec.builder().rateHz(Double.NaN));
    }

    @Test
    void equalSpecsAreEqual() {
        QosSpec a = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(100)).build();
        QosSpec b = QosSpec.builder().interval(Duration.ofNanos(16_666_667)).latencyBound(Duration.ofMillis(100)).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
    }
}
