package org.gridstat.sim.reproduce;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.net.SimDatagram;
import org.gridstat.sim.scenario.Scenario;

/**
 * The EPFL SHDSL experiment: C37.118 frames too large for one packet (1,815 and 2,178 bytes of
 * UDP payload, two IP fragments each at a 1,500-byte MTU) sent over a 1.98 Mbit/s link behind a
 * 50-packet queue, 10 % and 20 % above its capacity. What reaches the far end whole, under tail
 * drop ({@link LinkModel.Discipline#FIFO}), a datagram-aware queue
 * ({@link LinkModel.Discipline#DATAGRAM_FIFO}) and the router's own scheduler
 * ({@link LinkModel.Discipline#SCHEDULER}), against the bound goodput &lt;= capacity / offered.
 *
 * <p>Load is counted in wire bytes: each datagram's UDP payload, its UDP header and one IP header
 * per fragment (1,863 and 2,226 bytes; 2,044.5 on average), as the published overloads are. The
 * line may add its own framing ({@link LinkModel.Framing#ATM} on an SHDSL line: 2,120 and 2,544
 * bytes on the line), which the capacity has to carry too. The PMUs reach the modem over a
 * 100 Mbit/s LAN, so a frame's second fragment arrives 120 µs after its first.
 */
public final class Fragmentation {
    /** 1.98 Mbit/s. */
    public static final long CAPACITY = 247_500;
    /** UDP payloads of the two frame sizes, sent in turn by every source. */
    public static final List<Integer> FRAMES = List.of(1815, 2178);
    /** The link's packet queue, as on the SHDSL modem. */
    public static final int QUEUE_PACKETS = 50;
    /** IP fragments per frame at the link's MTU: every frame size takes this many. */
    public static final int FRAGMENTS = 2;
    /** How much the drifting sources' periods differ: evenly from −1 % to +1 % of the mean. */
    public static final double PERIOD_SPREAD = 0.01;
    /** The LAN from the PMUs to the modem, 100 Mbit/s: it spaces each frame's fragments. */
    public static final long ACCESS_RATE = 12_500_000;

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    private Fragmentation() {
    }

    /** How the frames arrive. */
    public enum Arrivals {
        /**
         * Several PMUs at one rate, GPS-aligned: they report at the same instants, so every period
         * brings one frame from each at once, and at the modem their fragments interleave (every
         * first fragment, then every second one).
         */
        ALIGNED_PMUS,
        /**
         * Several periodic sources whose periods differ by up to ±1 %, from random phases: their
         * relative phases drift through every alignment during a run, so the result does not rest
         * on one lucky or unlucky alignment with the queue.
         */
        DRIFTING_PMUS,
        /** Several sources with exponential gaps: the aggregate of many independent senders. */
        POISSON,
        /** One periodic source at the whole rate: it can lock into step with the queue. */
        ONE_PMU
    }

    /**
     * One run.
     *
     * @param overload offered load over capacity, in wire bytes (1.2: 20 % above)
     * @param sources  sources sharing the load (ignored for {@link Arrivals#ONE_PMU})
     * @param seconds  how long the sources send; the run lasts one second more, so what is queued
     *                 when they stop is delivered or lost, not left uncounted
     */
    public record Variant(LinkModel.Discipline discipline, double overload, Arrivals arrivals, int sources, long seconds,
                          long seed, LinkModel.Framing framing, long spreadNanos) {
        public Variant {
            if (overload <= 0 || sources < 1 || seconds < 1) {
                throw new IllegalArgumentException("overload, sources and seconds must be positive");
            }
            java.util.Objects.requireNonNull(framing, "framing");
            if (spreadNanos < 0 || (spreadNanos > 0 && arrivals != Arrivals.ALIGNED_PMUS)) {
                throw new IllegalArgumentException("a spread is not negative, and applies to aligned PMUs only: "
                        + spreadNanos + " ns, " + arrivals);
            }
        }

        /** Five sources, the published setup's "several", on a line that carries bare IP packets. */
        public static Variant of(LinkModel.Discipline d, double overload, Arrivals a, long seconds) {
            return new Variant(d, overload, a, 5, seconds, 1, LinkModel.Framing.IP, 0);
        }

        /** Five sources on an SHDSL line: ATM cells carry the packets. */
        public static Variant shdsl(LinkModel.Discipline d, double overload, Arrivals a, long seconds) {
            return new Variant(d, overload, a, 5, seconds, 1, LinkModel.Framing.ATM, 0);
        }

        /**
         * The same, the aligned PMUs' frames reaching the modem {@code nanos} apart, one after
         * another (PMUs of different makes take different times to send a report).
         */
        public Variant spread(long nanos) {
            return new Variant(discipline, overload, arrivals, sources, seconds, seed, framing, nanos);
        }

        public int sourceCount() {
            return arrivals == Arrivals.ONE_PMU ? 1 : sources;
        }

        /**
         * Datagrams each source's flow buffers in the router, which count under
         * {@link LinkModel.Discipline#SCHEDULER}: together as many packets as the FIFO's 50 (5
         * datagrams of 2 fragments for each of 5 sources). Under a FIFO discipline the router
         * releases at once and its buffers never fill.
         */
        public int flowBufferDatagrams() {
            return Math.max(1, QUEUE_PACKETS / (FRAGMENTS * sourceCount()));
        }
    }

    /**
     * What a run measured.
     *
     * @param offeredLoad   offered wire bytes (IP packets) over what the link carries in the sending
     *                      time, framing not counted: the overload as published
     * @param goodput       datagrams delivered whole over datagrams sent
     * @param boundGoodput  1 − the loss bound: capacity over offered, at most 1, both counted in the
     *                      line's bytes (framing included); bytes, where goodput counts datagrams, so a
     *                      queue that happens to deliver more of the shorter frames ends a little above
     * @param wastedWire    the share of the IP bytes the wire carried that belonged to datagrams not
     *                      delivered whole (fragments whose sibling was dropped)
     */
    public record Figures(Variant variant, long sent, long delivered, double offeredLoad, double goodput,
                          double boundGoodput, double wastedWire) {
        /** Goodput less the bound's: how far below (negative) or above the bound. */
        public double belowBound() {
            return goodput - boundGoodput;
        }
    }

    /** Mean wire bytes of a frame, the sizes taken in turn. */
    public static double meanWireBytes() {
        return FRAMES.stream().mapToDouble(Fragmentation::wireBytes).average().orElseThrow();
    }

    /** Mean bytes of a frame on a line of framing {@code f}, the sizes taken in turn. */
    public static double meanLineBytes(LinkModel.Framing f) {
        return FRAMES.stream().mapToDouble(size -> lineBytes(size, f)).average().orElseThrow();
    }

    static int lineBytes(int udpPayload, LinkModel.Framing f) {
        int line = 0;
        for (int i = 0; i < FRAGMENTS; i++) {
            line += f.lineBytes(SimDatagram.packetBytes(udpPayload, LinkModel.DEFAULT_MTU, i, FRAGMENTS));
        }
        return line;
    }

    static int wireBytes(int udpPayload) {
        int packets = SimDatagram.packets(udpPayload, LinkModel.DEFAULT_MTU);
        if (packets != FRAGMENTS) {
            throw new IllegalStateException(udpPayload + " bytes take " + packets + " packets, not " + FRAGMENTS);
        }
        return udpPayload + SimDatagram.UDP_HEADER + SimDatagram.IP_HEADER * packets;
    }

    public static Scenario scenario(Variant v) {
        Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, 0);
        shares.put(ServiceClass.LRT, 0);
        shares.put(ServiceClass.BE, 100);
        Topology t = Topology.builder()
                .router("pmus", 1_000_000, MS, "")
                .router("pdc", 1_000_000, MS, "")
                .link("pmus", "pdc", CAPACITY, MS, shares)
                .build();
        int n = v.sourceCount();
        double perSecond = v.overload() * CAPACITY / meanWireBytes();
        long stop = v.seconds() * S;
        SplittableRandom phases = new SplittableRandom(v.seed());
        List<Scenario.RawSource> sources = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double share = n == 1 || v.arrivals() != Arrivals.DRIFTING_PMUS ? 1
                    : 1 + PERIOD_SPREAD * (2.0 * i / (n - 1) - 1); // the shares add up to n: the load is exact
            long interval = Math.round(1e9 * n / (perSecond * share));
            long start = switch (v.arrivals()) {
                case POISSON -> 0;
                case ALIGNED_PMUS -> MS + i * v.spreadNanos(); // the same reporting instants for all
                case DRIFTING_PMUS, ONE_PMU -> phases.nextLong(interval);
            };
            sources.add(new Scenario.RawSource("pmu" + (i + 1), "pmus", "pdc", FRAMES, interval,
                    v.arrivals() == Arrivals.POISSON, start, stop, v.flowBufferDatagrams()));
        }
        LinkModel link = LinkModel.of(CAPACITY, MS).withDiscipline(v.discipline(), QUEUE_PACKETS)
                .withLine(v.framing(), ACCESS_RATE);
        return new Scenario("fragmentation-" + v.discipline().name().toLowerCase() + "-"
                + Math.round((v.overload() - 1) * 100) + "pct-" + v.arrivals().name().toLowerCase()
                + (v.framing() == LinkModel.Framing.IP ? "" : "-" + v.framing().name().toLowerCase())
                + (v.spreadNanos() == 0 ? "" : "-spread" + v.spreadNanos() + "ns"), t, stop + S, S,
                v.seed(), Scenario.Admission.FULL, Map.of("pmus->pdc", link), List.of(), List.of(), sources, List.of());
    }

    public static Figures run(Variant v) {
        SimulationResult r = Simulation.run(scenario(v));
        long sent = 0;
        long sentBytes = 0;
        long delivered = 0;
        long deliveredBytes = 0;
        for (SimulationResult.RawFigures f : r.raw().values()) {
            sent += f.sent();
            sentBytes += f.sentBytes();
            delivered += f.delivered();
            deliveredBytes += f.deliveredBytes();
        }
        int headers = SimDatagram.UDP_HEADER + SimDatagram.IP_HEADER * FRAGMENTS;
        double offeredWire = sentBytes + (double) sent * headers;
        double carried = (double) CAPACITY * v.seconds();
        double lineOverWire = meanLineBytes(v.framing()) / meanWireBytes(); // the sizes alternate: exact over a run
        long onWire = r.links().get("pmus->pdc").bytesOnWire();
        double deliveredWire = deliveredBytes + (double) delivered * headers;
        return new Figures(v, sent, delivered, offeredWire / carried, (double) delivered / sent,
                Math.min(1, carried / (offeredWire * lineOverWire)), onWire == 0 ? 0 : 1 - deliveredWire / onWire);
    }
}
