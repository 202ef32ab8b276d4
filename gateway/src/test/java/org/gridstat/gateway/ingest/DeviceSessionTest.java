package org.gridstat.gateway.ingest;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.data.StatWord;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.Test;

/** The PDC-client session stepped by hand on a manual clock: commands, timers, what it accepts. */
class DeviceSessionTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final int ID = 60;

    private final ManualClock clock = new ManualClock(SampleConfigs.SOC * S);
    private final List<Integer> commands = new ArrayList<>();
    private final List<Long> dataTimes = new ArrayList<>();
    private final List<ConfigFrame> configs = new ArrayList<>();
    private int restarts;
    private final DeviceCounters counters = new DeviceCounters("pmu");
    private DeviceSession session = session(DeviceTransport.TCP);

    private DeviceSession session(DeviceTransport transport) {
        DeviceSettings s = DeviceSettings.of("pmu", transport, new InetSocketAddress("127.0.0.1", 4712),
                transport.udpData() ? new InetSocketAddress("127.0.0.1", 4713) : null, ID);
        return new DeviceSession(s, clock, new DeviceSession.Link() {
            @Override
            public void send(byte[] command) {
                CommandFrame f = CommandFrameCodec.decode(ByteBuffer.wrap(command), 0, command.length).frame();
                assertEquals(ID, f.idCode(), "commands name the stream");
                commands.add(f.command());
            }

            @Override
            public void restart() {
                restarts++;
            }
        }, new DeviceSession.Sink() {
            @Override
            public void configuration(ConfigFrame config) {
                configs.add(config);
            }

            @Override
            public void data(DataFrameReader frame) {
                dataTimes.add(frame.soc() * S + frame.fractionNanos());
            }
        }, counters);
    }

    private static ConfigFrame config(int configCount, int phasors) {
        var pmu = SampleConfigs.pmu(ID, DataFormat.of(false, true, true, true), phasors, 1, 1, NominalFrequency.HZ_60);
        pmu = new org.gridstat.gateway.c37118.config.PmuConfig(pmu.station(), pmu.idCode(), pmu.format(),
                pmu.phasorNames(), pmu.analogNames(), pmu.digitalNames(), pmu.phasorUnits(), pmu.analogUnits(),
                pmu.digitalUnits(), pmu.nominal(), configCount);
        return SampleConfigs.config(FrameType.CONFIG_2, 2, ID, List.of(pmu), 30);
    }

    private void send(ConfigFrame c) {
        byte[] b = ConfigFrameCodec.encode(c);
        session.frame(FrameType.CONFIG_2, ByteBuffer.wrap(b), 0, b.length, clock.nanoTime());
    }

    /** A data frame for {@code c} stamped {@code epochNanos}, with {@code stat} in every PMU. */
    private static byte[] data(ConfigFrame c, long epochNanos, int stat) {
        DataLayout l = DataLayout.of(c);
        ByteBuffer b = ByteBuffer.allocate(l.frameSize());
        long soc = Math.floorDiv(epochNanos, S);
        int fraction = (int) (Math.floorMod(epochNanos, S) / 1_000); // TIME_BASE 1,000,000
        DataFrameWriter w = new DataFrameWriter().wrap(l, b, 0, 2, soc, FracSec.of(0, fraction));
        w.stat(0, stat);
        w.seal();
        return b.array();
    }

    private void sendData(ConfigFrame c, long epochNanos, int stat) {
        byte[] b = data(c, epochNanos, stat);
        session.frame(FrameType.DATA, ByteBuffer.wrap(b), 0, b.length, clock.nanoTime());
    }

    @Test
    void onConnectingItTurnsDataOffAsksForTheConfigurationAndTurnsDataOnWhenItComes() {
        session.connected(clock.nanoTime());
        assertEquals(List.of(CommandFrame.DATA_OFF, CommandFrame.SEND_CONFIG_2), commands);
        assertEquals(DeviceState.AWAITING_CONFIG, session.state());
        sendData(config(1, 2), clock.nanos(), 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_WITHOUT_CONFIG), "data before the configuration is dropped");

        send(config(1, 2));
        assertEquals(List.of(CommandFrame.DATA_OFF, CommandFrame.SEND_CONFIG_2, CommandFrame.DATA_ON), commands);
        assertEquals(DeviceState.STREAMING, session.state());
        assertEquals(1, configs.size());
        sendData(config(1, 2), clock.nanos(), 0);
        assertEquals(List.of(clock.nanos()), dataTimes);
    }

    @Test
    void anUnansweredRequestIsRepeatedEveryTimeoutThenTheSessionStartsOverWithADoublingBackOff() {
        session.connected(clock.nanoTime());
        for (int i = 0; i < 2; i++) {
            clock.advance(DeviceSettings.DEFAULT_CONFIG_TIMEOUT.toNanos() - 1);
            session.poll(clock.nanoTime());
            assertEquals(1 + i, commands.stream().filter(c -> c == CommandFrame.SEND_CONFIG_2).count() - 0,
                    "not asked again before the timeout");
            clock.advance(1);
            session.poll(clock.nanoTime());
        }
        assertEquals(3, commands.stream().filter(c -> c == CommandFrame.SEND_CONFIG_2).count());
        assertEquals(0, restarts);
        clock.advance(DeviceSettings.DEFAULT_CONFIG_TIMEOUT.toNanos());
        session.poll(clock.nanoTime());
        assertEquals(1, restarts, "three unanswered requests: start over");
        long first = session.disconnected(clock.nanoTime());
        session.connected(clock.nanoTime());
        long second = session.disconnected(clock.nanoTime());
        assertEquals(DeviceSettings.DEFAULT_RECONNECT_MIN.toNanos(), first);
        assertEquals(2 * first, second, "the back-off doubles");
        for (int i = 0; i < 20; i++) {
            session.disconnected(clock.nanoTime());
        }
        assertEquals(DeviceSettings.DEFAULT_RECONNECT_MAX.toNanos(), session.disconnected(clock.nanoTime()), "up to its maximum");

        session.connected(clock.nanoTime());
        send(config(1, 2));
        sendData(config(1, 2), clock.nanos(), 0);
        assertEquals(DeviceSettings.DEFAULT_RECONNECT_MIN.toNanos(), session.disconnected(clock.nanoTime()),
                "back at the minimum once data flowed");
    }

    @Test
    void dataSilenceForTheDataTimeoutStartsOver() {
        session.connected(clock.nanoTime());
        send(config(1, 2));
        clock.advance(DeviceSettings.DEFAULT_DATA_TIMEOUT.toNanos() - MS);
        sendData(config(1, 2), clock.nanos(), 0);
        clock.advance(DeviceSettings.DEFAULT_DATA_TIMEOUT.toNanos() - MS);
        session.poll(clock.nanoTime());
        assertEquals(0, restarts, "data came within the timeout");
        clock.advance(MS);
        session.poll(clock.nanoTime());
        assertEquals(1, restarts);
        assertEquals(1, counters.get(DeviceCounter.DATA_TIMEOUTS));
    }

    @Test
    void aConfigurationChangeMidStreamIsAskedForAndTakesEffectWhileFramesThatFitKeepFlowing() {
        session.connected(clock.nanoTime());
        ConfigFrame before = config(1, 2);
        send(before);
        commands.clear();
        // the PMU announces a change: the session asks for CFG-2 and keeps the data
        sendData(before, clock.nanos(), StatWord.of(0, false, false, false, true, false, 0, 0, 0));
        assertEquals(List.of(CommandFrame.SEND_CONFIG_2), commands);
        assertEquals(1, dataTimes.size());
        clock.advance(20 * MS);
        sendData(before, clock.nanos(), StatWord.of(0, false, false, false, true, false, 0, 0, 0));
        assertEquals(1, commands.size(), "asked at most once per configuration timeout");
        assertEquals(2, dataTimes.size());

        // the new configuration's frames come before its CFG-2: they do not fit, and are dropped
        ConfigFrame after = config(2, 4);
        clock.advance(S);
        sendData(after, clock.nanos(), 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_MISMATCH));
        assertEquals(2, dataTimes.size());
        send(after);
        assertEquals(2, configs.size());
        assertEquals(after.pmus(), configs.get(1).pmus());
        assertEquals(1, counters.get(DeviceCounter.CONFIG_CHANGES));
        clock.advance(20 * MS);
        sendData(after, clock.nanos(), 0);
        assertEquals(3, dataTimes.size());

        send(after); // the same configuration again: nothing changes
        assertEquals(2, configs.size());
    }

    @Test
    void framesStampedOutsideTheWindowOrBackwardsAreDroppedAndAClockStepIsFollowedAfterThree() {
        session.connected(clock.nanoTime());
        ConfigFrame c = config(1, 2);
        send(c);
        sendData(c, clock.nanos() + 3 * S, 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_FUTURE));
        sendData(c, clock.nanos() - 31 * S, 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_STALE));
        long t = clock.nanos();
        sendData(c, t, 0);
        sendData(c, t, 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_REPEATED), "a repeated time is dropped");
        sendData(c, t + 33 * MS, 0);
        clock.advance(100 * MS);
        sendData(c, t - S, 0);
        sendData(c, t - S + 33 * MS, 0);
        assertEquals(3, counters.get(DeviceCounter.DATA_REPEATED));
        sendData(c, t - S + 66 * MS, 0);
        assertEquals(List.of(t, t + 33 * MS, t - S + 66 * MS), dataTimes,
                "the third backward frame in a row is a clock step");
    }

    @Test
    void aFloodingDeviceLosesItsExcessAndKeepsItsRate() {
        session.connected(clock.nanoTime());
        ConfigFrame c = config(1, 2); // DATA_RATE 30: the limit is 60 frames a second, bursts of 30
        send(c);
        long t = clock.nanos();
        for (int i = 0; i < 1_000; i++) {
            sendData(c, t + i * 1_000, 0); // 1,000 frames at one instant of the monotonic clock
        }
        assertEquals(30, dataTimes.size(), "the burst");
        assertEquals(970, counters.get(DeviceCounter.DATA_FLOOD));
        for (int i = 0; i < 50; i++) {
            clock.advance(S / 50);
            sendData(c, clock.nanos(), 0);
        }
        assertEquals(80, dataTimes.size(), "within the limit again, nothing is lost");
    }

    @Test
    void aConfigurationOfAnotherStreamIsRefused() {
        session.connected(clock.nanoTime());
        var pmu = SampleConfigs.pmu(99, DataFormat.of(false, true, true, true), 1, 0, 0, NominalFrequency.HZ_50);
        send(SampleConfigs.config(FrameType.CONFIG_2, 2, 99, List.of(pmu), 30));
        assertEquals(1, counters.get(DeviceCounter.CONFIG_REFUSED));
        assertEquals(DeviceState.AWAITING_CONFIG, session.state());
        assertTrue(configs.isEmpty());
    }

    @Test
    void aConfigurationThatChangesFasterThanOnceASecondIsRefusedAndTakenWhenItHasLasted() {
        session.connected(clock.nanoTime());
        send(config(1, 2));
        clock.advance(500 * MS);
        send(config(2, 2));
        assertEquals(1, configs.size(), "half a second after the last change: refused");
        assertEquals(1, counters.get(DeviceCounter.CONFIG_CHURN));
        clock.advance(500 * MS);
        send(config(2, 2));
        assertEquals(2, configs.size(), "a second after: taken");
        for (int i = 0; i < 1_000; i++) { // a device flipping between two configurations
            send(config(1 + i % 2, 2));
        }
        assertEquals(2, configs.size(), "not followed");
        assertEquals(1 + 500, counters.get(DeviceCounter.CONFIG_CHURN), "every flip to the other one");
    }

    @Test
    void aConfigurationTheSinkCannotTakeIsNotInForceAndIsTakenWhenItCanBe() {
        boolean[] fail = {true};
        List<ConfigFrame> taken = new ArrayList<>();
        DeviceSettings s = DeviceSettings.of("pmu", DeviceTransport.TCP, new InetSocketAddress("127.0.0.1", 4712), null, ID);
        session = new DeviceSession(s, clock, new DeviceSession.Link() {
            @Override
            public void send(byte[] command) {
            }

            @Override
            public void restart() {
            }
        }, new DeviceSession.Sink() {
            @Override
            public void configuration(ConfigFrame config) {
                if (fail[0]) {
                    throw new IllegalStateException("cannot publish it");
                }
                taken.add(config);
            }

            @Override
            public void data(DataFrameReader frame) {
                dataTimes.add(frame.soc());
            }
        }, counters);
        session.connected(clock.nanoTime());
        send(config(1, 2));
        assertEquals(1, counters.get(DeviceCounter.CONFIG_REFUSED));
        assertNull(session.config());
        sendData(config(1, 2), clock.nanos(), 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_WITHOUT_CONFIG), "its data is counted as without one");
        assertTrue(dataTimes.isEmpty());
        fail[0] = false;
        send(config(1, 2)); // the same configuration again, after a reconnection or a request
        assertEquals(1, taken.size(), "taken now");
        clock.advance(MS);
        sendData(config(1, 2), clock.nanos(), 0);
        assertEquals(1, dataTimes.size());
    }

    @Test
    void aSpontaneousDeviceGetsNoCommandsAndStreamsOnceItsPeriodicConfigurationComes() {
        session = session(DeviceTransport.SPONTANEOUS);
        session.connected(clock.nanoTime());
        assertEquals(List.of(), commands);
        ConfigFrame c = config(1, 2);
        sendData(c, clock.nanos(), 0);
        assertEquals(1, counters.get(DeviceCounter.DATA_WITHOUT_CONFIG));
        send(c);
        assertEquals(DeviceState.STREAMING, session.state());
        clock.advance(MS);
        sendData(c, clock.nanos(), 0);
        assertEquals(1, dataTimes.size());
        clock.advance(DeviceSettings.DEFAULT_DATA_TIMEOUT.toNanos());
        session.poll(clock.nanoTime());
        assertEquals(0, restarts, "nothing to restart for a device that is not asked");
        assertEquals(DeviceState.AWAITING_CONFIG, session.state(), "shown as not streaming");
        sendData(c, clock.nanos(), 0);
        assertEquals(2, dataTimes.size(), "its configuration is kept: data flows again at once");
        assertEquals(List.of(), commands);
    }
}
