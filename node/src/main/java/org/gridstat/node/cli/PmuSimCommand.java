package org.gridstat.node.cli;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gridstat.gateway.GatewayConfiguration;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gridstat pmu-sim}: a C37.118 stream of simulated PMUs, for demos, tests and benchmarks. */
@Command(name = "pmu-sim", mixinStandardHelpOptions = true,
        header = "Simulates PMUs that speak IEEE C37.118.2 as a PMU/PDC server.",
        description = {"Serves one C37.118 stream of simulated PMUs: CFG-1, CFG-2, CFG-3 and header frames on"
                + " request, and data frames on the UTC grid of the rate once a client turns data on, over TCP, UDP,"
                + " commands on TCP with data on UDP, or spontaneous UDP. Values are deterministic functions of the"
                + " time (voltages and currents near nominal, a frequency drifting by a few mHz, analogs, breakers)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:a port was taken", "2:bad options", "143:stopped by SIGTERM (130: by Ctrl-C)"})
final class PmuSimCommand implements Callable<Integer> {
    @Option(names = "--tcp", paramLabel = "HOST:PORT", description = "Serve TCP clients here (default: 127.0.0.1:4712 unless --udp or --spontaneous-to is given).")
    String tcp;

    @Option(names = "--udp", paramLabel = "HOST:PORT", description = "Serve UDP peers here: commands in, data back.")
    String udp;

    @Option(names = "--spontaneous-to", paramLabel = "HOST:PORT",
            description = "Send data (and CFG-2 once a minute) to this address unasked.")
    String spontaneousTo;

    @Option(names = "--data-over-udp-to", paramLabel = "HOST:PORT",
            description = "Commands on TCP, data as UDP datagrams to this address.")
    String dataOverUdp;

    @Option(names = "--id-code", defaultValue = "7", description = "The stream's IDCODE (default: ${DEFAULT-VALUE}).")
    int idCode;

    @Option(names = "--pmus", defaultValue = "1", description = "PMUs in the stream (default: ${DEFAULT-VALUE}); their IDCODEs follow the stream's.")
    int pmus;

    @Option(names = "--rate", defaultValue = "30", description = "Frames per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--format", defaultValue = "float-polar", paramLabel = "int-rect|int-polar|float-rect|float-polar",
            description = "Number format and coordinates of phasors, frequency and analogs (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--phasors", defaultValue = "6", description = "Phasors per PMU (default: ${DEFAULT-VALUE}).")
    int phasors;

    @Option(names = "--analogs", defaultValue = "2", description = "Analogs per PMU (default: ${DEFAULT-VALUE}).")
    int analogs;

    @Option(names = "--digitals", defaultValue = "1", description = "16-bit digital words per PMU (default: ${DEFAULT-VALUE}).")
    int digitals;

    @Option(names = "--nominal", defaultValue = "60", description = "Nominal frequency, 50 or 60 Hz (default: ${DEFAULT-VALUE}).")
    int nominal;

    @Option(names = "--frame-version", defaultValue = "2",
            description = "The frames' version: 1 (C37.118-2005) or 2 (C37.118.2-2011) (default: ${DEFAULT-VALUE}).")
    int version;

    @Option(names = "--station", defaultValue = "PMU", description = "Station name prefix (default: ${DEFAULT-VALUE}); PMU k is named PREFIX-k.")
    String station;

    @Override
    public Integer call() {
        PmuSimSpec spec;
        PmuServer.Settings transport;
        try {
            spec = spec();
            transport = transport();
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        PmuSimulator sim;
        try {
            sim = PmuSimulator.start(spec, transport);
        } catch (RuntimeException e) {
            System.err.println("cannot start: " + e.getMessage());
            return 1;
        }
        PmuServer s = sim.server();
        return Foreground.run(sim, "pmu-sim: stream " + idCode + " of " + pmus + " PMUs at " + rate + " frames/s"
                + (s.tcpAddress() == null ? "" : ", TCP " + s.tcpAddress())
                + (s.udpAddress() == null ? "" : ", UDP " + s.udpAddress())
                + (spontaneousTo == null ? "" : ", sending to " + spontaneousTo));
    }

    PmuSimSpec spec() {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("--frame-version is 1 or 2, not " + version);
        }
        if (nominal != 50 && nominal != 60) {
            throw new IllegalArgumentException("--nominal is 50 or 60, not " + nominal);
        }
        if (pmus < 1 || pmus > 1000) {
            throw new IllegalArgumentException("--pmus is 1 to 1000, not " + pmus);
        }
        DataFormat f = switch (format.toLowerCase(Locale.ROOT)) {
            case "int-rect" -> DataFormat.of(false, false, false, false);
            case "int-polar" -> DataFormat.of(true, false, false, false);
            case "float-rect" -> DataFormat.of(false, true, true, true);
            case "float-polar" -> DataFormat.of(true, true, true, true);
            default -> throw new IllegalArgumentException("--format is int-rect, int-polar, float-rect or float-polar, not " + format);
        };
        List<SimulatedPmu> list = new ArrayList<>();
        for (int k = 0; k < pmus; k++) {
            list.add(new SimulatedPmu(station + "-" + (k + 1), (idCode + k) & 0xFFFF, f, phasors, analogs, digitals,
                    nominal == 50 ? NominalFrequency.HZ_50 : NominalFrequency.HZ_60));
        }
        if (rate < 1 || rate > 1000) {
            throw new IllegalArgumentException("--rate is 1 to 1000 frames per second, not " + rate);
        }
        PmuSimSpec spec = new PmuSimSpec(idCode, version, rate, timeBase(rate), list, 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        long configBytes = ConfigFrameCodec.encodedSize(cfg);
        long dataBytes;
        try {
            dataBytes = DataLayout.of(cfg).frameSize();
        } catch (IllegalArgumentException e) {
            dataBytes = Long.MAX_VALUE;
        }
        if (configBytes > CommonHeader.MAX_FRAME_SIZE || dataBytes > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("--pmus " + pmus + " of this shape make frames over the 65,535 bytes a"
                    + " C37.118 frame holds (CFG-2 " + configBytes + " bytes): fewer PMUs or channels");
        }
        return spec;
    }

    /** Microseconds where the rate divides them, else 3,000,000 counts (30, 60, 120 Hz), else the nearest multiple. */
    static int timeBase(int rate) {
        if (1_000_000 % rate == 0) {
            return 1_000_000;
        }
        return 3_000_000 % rate == 0 ? 3_000_000 : rate * (1_000_000 / rate);
    }

    PmuServer.Settings transport() {
        InetSocketAddress t = address("--tcp", tcp);
        InetSocketAddress u = address("--udp", udp);
        InetSocketAddress sp = address("--spontaneous-to", spontaneousTo);
        InetSocketAddress over = address("--data-over-udp-to", dataOverUdp);
        if (t == null && u == null && sp == null) {
            t = new InetSocketAddress("127.0.0.1", 4712);
        }
        return new PmuServer.Settings(t, u, sp, over, PmuServer.Settings.DEFAULT_MAX_CLIENTS,
                PmuServer.Settings.DEFAULT_MAX_PENDING_BYTES, PmuServer.Settings.DEFAULT_CONFIG_EVERY,
                PmuServer.Settings.DEFAULT_IDLE_TIMEOUT);
    }

    private static InetSocketAddress address(String option, String text) {
        return text == null ? null : GatewayConfiguration.address(option, text);
    }
}
