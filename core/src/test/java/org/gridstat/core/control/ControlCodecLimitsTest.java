package org.gridstat.core.control;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.LongStream;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/** The check a broker makes before storing an install agrees with what the encoder carries, at the limits. */
class ControlCodecLimitsTest {
    private static InstallFlow install(String link, int intervals) {
        return new InstallFlow(1, 42, link, FlowSpec.of(7, ServiceClass.HRT, 1000, 0, 2000, FlowSpec.DEFAULT_BUFFER_EVENTS, ""),
                LongStream.rangeClosed(1, intervals).map(i -> i * 1_000_000L).toArray(), 1_000_000, 0, 0);
    }

    private static boolean encodes(InstallFlow f) {
        try {
            ControlCodec.encode(1, f);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean checks(InstallFlow f) {
        try {
            ControlCodec.checkEncodable(f);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Test
    void theCheckRefusesExactlyWhatTheEncoderRefuses() {
        InstallFlow[] cases = {install("x".repeat(1024), 64), install("x".repeat(1025), 1), install("é".repeat(512), 1),
                install("é".repeat(513), 1), install("cc", 65), install("cc", 0), install("x".repeat(10_000), 1)};
        boolean[] carried = {true, false, true, false, false, true, false};
        for (int i = 0; i < cases.length; i++) {
            assertEquals(carried[i], encodes(cases[i]), "case " + i + " encodes");
            assertEquals(carried[i], checks(cases[i]), "case " + i + " checks");
        }
    }
}
