package org.gridstat.statusrouter.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.Shaping;
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
 * emulated link holds ahead of its wire, default 256 KiB: an emulated link also serializes at its
 * capacity), {@code mtu} (the largest datagram sent on the link, bytes, 1,472 to 65,507, default
 * 1,472: the events one duty cycle releases together are packed into datagrams of at most this
 * size; loopback and jumbo-frame links can take more).
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

    static OutLinkConfig parse(String text) {
        ConfigLine line = new ConfigLine(text, KEYS);
        try {
            String name = line.text("name");
            Endpoint address = Endpoint.parse(line.text("address"));
            long capacity = line.number("capacity", DEFAULT_CAPACITY);
            if (capacity <= 0) {
                throw line.error("capacity must be positive");
            }
            Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
            shares.put(ServiceClass.HRT, Shaping.of(capacity * percent(line, "hrt", 50) / 100, capacity));
            shares.put(ServiceClass.LRT, Shaping.of(capacity * percent(line, "lrt", 30) / 100, capacity));
            shares.put(ServiceClass.BE, Shaping.of(capacity * percent(line, "be", 20) / 100, capacity));
            EmulationConfig emulation = new EmulationConfig(line.nanos("delay", 0), line.decimal("loss", 0),
                    line.nanos("faultEvery", 0), line.nanos("faultFor", 0), line.number("seed", 1),
                    line.number("queue", EmulationConfig.DEFAULT_QUEUE_BYTES));
            LinkSpec spec = line.has("burst")
                    ? LinkSpec.of(capacity, line.number("burst", 0), shares, LinkSpec.DEFAULT_CONTROL_BUFFER)
                    : LinkSpec.of(capacity, shares);
            Endpoint priority = line.has("priority") ? Endpoint.parse(line.text("priority")) : null;
            long mtu = line.number("mtu", EgressPump.DEFAULT_MTU);
            if (mtu < WireFormat.MAX_FRAME_LENGTH || mtu > WireFormat.MAX_DATAGRAM_LENGTH) {
                throw line.error("mtu must be " + WireFormat.MAX_FRAME_LENGTH + ".." + WireFormat.MAX_DATAGRAM_LENGTH
                        + " bytes (the largest frame .. the largest UDP datagram)");
            }
            return new OutLinkConfig(name, address, spec, emulation, priority, (int) mtu);
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("'") ? e : line.error(e.getMessage());
        }
    }

    /** A link made for a {@code routes} line's destination: default capacity and shares, no emulation. */
    static OutLinkConfig forDestination(Endpoint address) {
        return new OutLinkConfig(address.toString(), address, LinkSpec.withDefaultShares(DEFAULT_CAPACITY),
                EmulationConfig.NONE, null);
    }

    private static long percent(ConfigLine line, String key, long otherwise) {
        long p = line.number(key, otherwise);
        if (p < 0 || p > 100) {
            throw line.error(key + " share must be 0..100 percent");
        }
        return p;
    }
}
