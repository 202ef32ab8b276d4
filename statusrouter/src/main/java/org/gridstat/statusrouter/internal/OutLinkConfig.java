package org.gridstat.statusrouter.internal;

import org.gridstat.core.model.ConfigLine;
import java.util.Set;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.wire.WireFormat;

/**
 * An out-link: a neighbour router or a local subscriber, its capacity and class shares, and the
 * optional emulation of a wide-area link in front of it.
 *
 * <p>Line keys: {@code name}, {@code address} (host:port), {@code capacity} (bytes/s, default
 * 125,000,000 = 1 Gbit/s), {@code hrt}/{@code lrt}/{@code be} (assured share in percent, default
 * 50/30/20; every class may borrow up to the whole link), {@code burst} (bytes the link's pacer may
 * release at once into the socket, default one pacing tick of the capacity plus one largest frame:
 * what it releases waits in a FIFO, so a large burst lets best effort delay HRT), {@code delay} (propagation delay to add,
 * e.g. 5ms), {@code loss} (omission probability, 0..1), {@code faultEvery} and {@code faultFor}
 * (mean time between link-down periods and their length), {@code seed}, {@code queue} (bytes an
 * emulated link holds ahead of its wire, default 256 KiB, at least one maximum frame: an emulated
 * link also serializes at its capacity; refused on a link that emulates nothing, where it would
 * bound nothing), {@code mtu} (the largest datagram sent on the link, bytes, 1,472 to 65,507,
 * default 1,472: the events one duty cycle releases together are packed into datagrams of at most
 * this size; loopback and jumbo-frame links can take more).
 */
final class OutLinkConfig {
    static final long DEFAULT_CAPACITY = 125_000_000L;
    private static final Set<String> KEYS = Set.of("name", "address", "capacity", "hrt", "lrt", "be", "burst", "delay",
            "loss", "faultEvery", "faultFor", "seed", "queue", "priority", "mtu");

    final String name;
    final Endpoint address;
    final LinkSpec spec;
    final EmulationConfig emulation;
    /** The neighbour's priority data port, where HRT and LRT frames go; {@code null}: all go to {@link #address}. */
    final Endpoint priorityAddress;
    /** The largest datagram sent on the link. */
    final int mtu;

    OutLinkConfig(String name, Endpoint address, LinkSpec spec, EmulationConfig emulation, Endpoint priorityAddress) {
        this(name, address, spec, emulation, priorityAddress, EgressPump.DEFAULT_MTU);
    }

    OutLinkConfig(String name, Endpoint address, LinkSpec spec, EmulationConfig emulation, Endpoint priorityAddress,
                  int mtu) {
        this.mtu = mtu;
        this.name = name;
        this.address = address;
        this.spec = spec;
        this.emulation = emulation;
        this.priorityAddress = priorityAddress;
    }

    /**
     * Parses a link line.
     *
     * @throws IllegalArgumentException quoting the line and naming the link and the key at fault
     */
    static OutLinkConfig parse(String text) {
        ConfigLine line = new ConfigLine(text, KEYS);
        String name = line.text("name");
        try {
            Endpoint address = endpoint(line, name, "address");
            long capacity = line.number("capacity", DEFAULT_CAPACITY);
            if (capacity <= 0) {
                throw error(line, name, "capacity must be positive, got " + capacity + " B/s");
            }
            long hrt = percent(line, name, "hrt", 50);
            long lrt = percent(line, name, "lrt", 30);
            long be = percent(line, name, "be", 20);
            if (hrt + lrt + be > 100) {
                throw error(line, name, "hrt + lrt + be add up to " + (hrt + lrt + be) + " percent, more than 100");
            }
            EmulationConfig emulation;
            try {
                emulation = new EmulationConfig(line.nanos("delay", 0), line.decimal("loss", 0),
                        line.nanos("faultEvery", 0), line.nanos("faultFor", 0), line.number("seed", 1),
                        line.number("queue", EmulationConfig.DEFAULT_QUEUE_BYTES));
            } catch (IllegalArgumentException e) {
                throw e.getMessage().startsWith("'") ? e : error(line, name, e.getMessage());
            }
            if (line.has("queue") && !emulation.active()) {
                throw error(line, name, "queue bounds an emulated link's queue, and this link emulates nothing:"
                        + " give it delay, loss or faultEvery and faultFor, or leave queue out");
            }
            if (emulation.active() && capacity > LinkEmulator.MAX_CAPACITY) {
                throw error(line, name, "capacity " + capacity + " B/s is more than an emulated link (delay, loss,"
                        + " faultEvery) serializes at, " + LinkEmulator.MAX_CAPACITY + " B/s");
            }
            LinkSpec spec;
            if (line.has("burst")) {
                long burst = line.number("burst", 0);
                try {
                    if (burst <= 0) { // 0 is the default for ofPercent, never a burst of one's own
                        throw new IllegalArgumentException("link burst must hold one maximum frame ("
                                + LinkSpec.MAX_FRAME_BYTES + " B), got " + burst + " B");
                    }
                    spec = LinkSpec.ofPercent(capacity, hrt, lrt, be, burst);
                } catch (IllegalArgumentException e) {
                    throw e.getMessage().startsWith("'") ? e : error(line, name, "burst: " + e.getMessage());
                }
            } else {
                spec = LinkSpec.ofPercent(capacity, hrt, lrt, be, 0);
            }
            Endpoint priority = line.has("priority") ? endpoint(line, name, "priority") : null;
            long mtu = line.number("mtu", EgressPump.DEFAULT_MTU);
            if (mtu < WireFormat.MAX_FRAME_LENGTH || mtu > WireFormat.MAX_DATAGRAM_LENGTH) {
                throw error(line, name, "mtu must be " + WireFormat.MAX_FRAME_LENGTH + ".." + WireFormat.MAX_DATAGRAM_LENGTH
                        + " bytes (the largest frame .. the largest UDP datagram), got " + mtu);
            }
            if (emulation.active() && emulation.queueBytes < mtu) {
                throw error(line, name, "queue (" + emulation.queueBytes + " bytes) is smaller than the link's mtu (" + mtu
                        + "): every datagram larger than the queue would be lost whole");
            }
            return new OutLinkConfig(name, address, spec, emulation, priority, (int) mtu);
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("'") ? e : error(line, name, e.getMessage());
        }
    }

    /**
     * A link the broker gave, read as the link line it stands for, so that it is checked exactly
     * as a link of the router's own file.
     *
     * @throws IllegalArgumentException quoting that line and naming what is wrong
     */
    static OutLinkConfig of(ControlMessage.OutLink l) {
        StringBuilder line = new StringBuilder().append("name=").append(l.name()).append(" address=").append(l.address())
                .append(" capacity=").append(l.capacity()).append(" hrt=").append(l.hrtPercent())
                .append(" lrt=").append(l.lrtPercent()).append(" be=").append(l.bePercent()).append(" mtu=").append(l.mtu());
        if (l.priority() != null) {
            line.append(" priority=").append(l.priority());
        }
        if (l.burstBytes() > 0) {
            line.append(" burst=").append(l.burstBytes());
        }
        ControlMessage.Emulation e = l.emulation();
        if (e.active()) {
            line.append(" delay=").append(e.delayNanos()).append("ns loss=").append(e.loss())
                    .append(" faultEvery=").append(e.faultEveryNanos()).append("ns faultFor=").append(e.faultForNanos())
                    .append("ns seed=").append(e.seed());
            if (e.queueBytes() > 0) {
                line.append(" queue=").append(e.queueBytes());
            }
        }
        return parse(line.toString());
    }

    /** A link made for a {@code routes} line's destination: default capacity and shares, no emulation. */
    static OutLinkConfig forDestination(Endpoint address) {
        return new OutLinkConfig(address.toString(), address, LinkSpec.withDefaultShares(DEFAULT_CAPACITY),
                EmulationConfig.NONE, null);
    }

    private static long percent(ConfigLine line, String name, String key, long otherwise) {
        long p = line.number(key, otherwise);
        if (p < 0 || p > 100) {
            throw error(line, name, key + " share must be 0..100 percent, got " + p);
        }
        return p;
    }

    private static Endpoint endpoint(ConfigLine line, String name, String key) {
        try {
            return Endpoint.parse(line.text(key));
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("'") ? e : error(line, name, key + ": " + e.getMessage());
        }
    }

    private static IllegalArgumentException error(ConfigLine line, String name, String why) {
        return line.error("link '" + name + "': " + why);
    }
}
