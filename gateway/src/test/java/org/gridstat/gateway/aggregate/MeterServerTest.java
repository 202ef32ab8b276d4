package org.gridstat.gateway.aggregate;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The meter server's bounds, one by one, over loopback, its clocks manual. */
class MeterServerTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_800_000_000L * S;
    private static final long NOW_MICROS = (T0 + 600 * MS) / 1000;

    private final ManualClock clock = new ManualClock(T0 + 500 * MS);
    private final RecordingSink sink = new RecordingSink();
    private MeterServer server;

    private MeterServer start(MeterServerSettings s) {
        server = MeterServer.start(s, sink, clock, clock);
        return server;
    }

    private static MeterServerSettings settings() {
        return MeterServerSettings.at(new InetSocketAddress("127.0.0.1", 0));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(server.address(), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** Reads until the server closes the connection; fails if it sends anything. */
    private static void assertClosedByServer(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        try {
            assertEquals(-1, in.read());
        } catch (SocketTimeoutException e) {
            fail("the server did not close the connection");
        } catch (IOException reset) {
            // closed with unread bytes: a reset, as good as a close here
        }
    }

    @Test
    void connectionsBeyondTheMaximumAreClosedAndCounted() throws Exception {
        MeterCounters c = start(settings().withMaxConnections(2)).counters();
        Socket a = connect();
        try (Socket b = connect(); Socket extra = connect()) {
            assertTrue(b.isConnected());
            assertClosedByServer(extra);
            assertEquals(1, c.get(MeterCounter.CONNECTIONS_REFUSED));
            Eventually.until("two accepted", () -> c.get(MeterCounter.CONNECTIONS_ACCEPTED) == 2);
            a.close();
            Eventually.until("a slot freed", () -> server.connections() == 1);
            try (Socket again = connect()) {
                again.getOutputStream().write(MeterFormat.hello(1, 1));
                Eventually.until("hello", () -> c.get(MeterCounter.HELLOS) == 1);
            }
        }
    }

    @Test
    void aConnectionWithoutHelloIsClosedAtItsDeadlineAndAnIdleOneAfterItsTimeout() throws Exception {
        MeterCounters c = start(settings().withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30))).counters();
        try (Socket silent = connect(); Socket talker = connect()) {
            talker.getOutputStream().write(MeterFormat.hello(7, 1));
            Eventually.until("hello", () -> c.get(MeterCounter.HELLOS) == 1);
            clock.advance(4_999 * MS);
            clock.advance(MS);
            assertClosedByServer(silent);
            assertEquals(1, c.get(MeterCounter.CLOSED_HELLO_TIMEOUT));
            assertEquals(0, c.get(MeterCounter.CLOSED_IDLE));
            talker.getOutputStream().write(MeterFormat.reading(clock.nanos() / 1000, 0, 1, 1f, 0f, 0f));
            Eventually.until("reading", () -> c.get(MeterCounter.READINGS_ACCEPTED) == 1);
            clock.advance(30 * S);
            assertClosedByServer(talker);
            assertEquals(1, c.get(MeterCounter.CLOSED_IDLE));
            Eventually.until("closed", () -> c.get(MeterCounter.CONNECTIONS_CLOSED) == 2);
        }
    }

    @Test
    void garbageBeyondTheBoundClosesTheConnection() throws Exception {
        MeterCounters c = start(settings().withMaxGarbageBytes(100)).counters();
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(MeterFormat.hello(7, 1));
            out.write(new byte[100]); // exactly the bound: still open
            out.write(MeterFormat.reading(NOW_MICROS, 0, 1, 1f, 0f, 0f));
            Eventually.until("reading after junk", () -> c.get(MeterCounter.READINGS_ACCEPTED) == 1, c::snapshot);
            assertEquals(100, c.get(MeterCounter.BYTES_SKIPPED));
            out.write(new byte[] {1});
            assertClosedByServer(s);
            assertEquals(1, c.get(MeterCounter.CLOSED_GARBAGE));
            assertEquals(101, c.get(MeterCounter.BYTES_SKIPPED));
        }
    }

    @Test
    void aFastMeterIsPausedNotBufferedAndResumedAsItsAllowanceRefills() throws Exception {
        // 10 records a second, 10 at once: the hello and 9 readings, then 10 a second
        MeterCounters c = start(settings().withRate(10, 10)).counters();
        byte[] burst = new byte[MeterFormat.HELLO_LENGTH + 100 * MeterFormat.READING_LENGTH];
        System.arraycopy(MeterFormat.hello(7, 1), 0, burst, 0, MeterFormat.HELLO_LENGTH);
        for (int i = 0; i < 100; i++) {
            System.arraycopy(MeterFormat.reading(NOW_MICROS + i, 0, 1, i, 0f, 0f), 0, burst,
                    MeterFormat.HELLO_LENGTH + i * MeterFormat.READING_LENGTH, MeterFormat.READING_LENGTH);
        }
        try (Socket s = connect()) {
            s.getOutputStream().write(burst);
            Eventually.until("paused", () -> c.get(MeterCounter.PAUSES) == 1, c::snapshot);
            assertEquals(9, taken(c), "the clock stands still: nothing more is read");
            for (int second = 1; second <= 9; second++) {
                clock.advance(S);
                long want = 9 + 10L * second;
                Eventually.until("second " + second, () -> taken(c) == want, c::snapshot);
            }
            clock.advance(S);
            Eventually.until("all", () -> taken(c) == 100, c::snapshot);
            // paused whenever the allowance ran out with bytes of a read left (once per read of at most
            // 512 bytes, however TCP cut them), resumed when they were decoded
            Eventually.until("resumed", () -> c.get(MeterCounter.RESUMES) == c.get(MeterCounter.PAUSES), c::snapshot);
            assertEquals(1, c.get(MeterCounter.READINGS_ACCEPTED), "one meter, one interval");
            assertEquals(0, c.get(MeterCounter.CLOSED_IDLE), "a paused connection is not idle");
            assertEquals(0, c.get(MeterCounter.CLOSED_OVERFLOW));
        }
    }

    private static long taken(MeterCounters c) {
        return c.get(MeterCounter.READINGS_ACCEPTED) + c.get(MeterCounter.READINGS_REPEATED)
                + c.get(MeterCounter.READINGS_LATE);
    }

    @Test
    void helloRulesAreEnforcedAndCounted() throws Exception {
        MeterServerSettings s = settings().withAggregator(AggregatorSettings.defaults().withMaxMeters(1));
        MeterCounters c = start(s).counters();
        try (Socket first = connect(); Socket second = connect(); Socket third = connect()) {
            OutputStream out = first.getOutputStream();
            out.write(MeterFormat.reading(NOW_MICROS, 0, 1, 1f, 0f, 0f));
            out.write(MeterFormat.hello(7, 1));
            out.write(MeterFormat.hello(7, 1));
            Eventually.until("repeated hello", () -> c.get(MeterCounter.HELLOS_REPEATED) == 1, c::snapshot);
            assertEquals(1, c.get(MeterCounter.READINGS_BEFORE_HELLO));
            second.getOutputStream().write(MeterFormat.hello(8, 1));
            assertClosedByServer(second);
            assertEquals(1, c.get(MeterCounter.CLOSED_HELLO_REFUSED));
            assertEquals(1, server.aggregatorStatus().helloRefusals().get(HelloRefusal.TOO_MANY_METERS));
            third.getOutputStream().write(MeterFormat.hello(7, 1)); // the same meter twice: allowed
            Eventually.until("second connection of meter 7", () -> c.get(MeterCounter.HELLOS) == 2, c::snapshot);
            out.write(MeterFormat.hello(7, 2));
            assertClosedByServer(first);
            assertEquals(1, c.get(MeterCounter.CLOSED_HELLO_CHANGED));
        }
    }

    @Test
    void badRecordsAreCountedByReason() throws Exception {
        MeterCounters c = start(settings()).counters();
        byte[] damaged = MeterFormat.reading(NOW_MICROS, 0, 1, 1f, 0f, 0f);
        damaged[18] ^= 4;
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(MeterFormat.hello(7, 1));
            out.write(damaged);
            out.write(MeterFormat.reading(NOW_MICROS, 0, 0x10, 1f, 0f, 0f));
            out.write(MeterFormat.reading(NOW_MICROS + 3_000_000, 0, 1, 1f, 0f, 0f));
            out.write(MeterFormat.reading(NOW_MICROS, 0, 1, 1f, 0f, 0f));
            Eventually.until("the good reading", () -> c.get(MeterCounter.READINGS_ACCEPTED) == 1, c::snapshot);
            assertEquals(1, c.rejects(DecodeOutcome.BAD_CHECKSUM));
            assertEquals(1, c.rejects(DecodeOutcome.UNKNOWN_KIND));
            assertEquals(1, c.rejects(DecodeOutcome.TIME_AHEAD));
            assertEquals(3, c.get(MeterCounter.RECORDS_REJECTED));
            assertEquals(MeterFormat.READING_LENGTH, c.get(MeterCounter.BYTES_SKIPPED));
        }
    }
}
