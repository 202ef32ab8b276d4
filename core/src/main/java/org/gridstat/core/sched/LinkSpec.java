package org.gridstat.core.sched;

import java.util.EnumMap;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.WireFormat;

/**
 * An out-link's capacity, burst and the HTB shares of its three data classes. The link is paced to
 * its capacity; control traffic is served first and counts against the capacity but no class.
 *
 * <p>The burst is the most the pacer hands to the socket at once. What it releases waits in FIFOs
 * (socket, NIC, the next link) where EDF no longer applies, so an HRT event can wait behind a whole
 * burst of best effort: the burst is kept small. The pacer lets an event go while its bucket is not
 * in debt and charges the event when it leaves, so its bucket holds {@code burst - MAX_FRAME_BYTES}
 * and a full bucket plus the frame that overdraws it make the burst.
 */
public final class LinkSpec {
    /** Control events queued at most; more are dropped and counted. */
    public static final int DEFAULT_CONTROL_BUFFER = 256;
    /**
     * The default burst beyond one frame, in time at the link's capacity: one pacing tick of the data
     * path (50 us), so the pacer need not be called more often than each tick to keep the link full.
     */
    public static final long DEFAULT_BURST_NANOS = 50_000;
    /** The largest frame a link carries; a burst holds at least one. */
    public static final int MAX_FRAME_BYTES = WireFormat.MAX_FRAME_LENGTH;

    private final long capacity;
    private final long burst;
    private final Map<ServiceClass, Shaping> classes;
    private final int controlBuffer;
    private final boolean shapedInKernel;
    private final boolean demandFromKernel;

    private LinkSpec(long capacity, long burst, Map<ServiceClass, Shaping> classes, int controlBuffer,
                     boolean shapedInKernel, boolean demandFromKernel) {
        this.demandFromKernel = demandFromKernel;
        this.capacity = capacity;
        this.burst = burst;
        this.classes = classes;
        this.controlBuffer = controlBuffer;
        this.shapedInKernel = shapedInKernel;
    }

    /**
     * A link of {@code capacityBytesPerSecond} whose classes are given their shares, with the
     * {@linkplain #defaultBurst default burst}.
     *
     * @throws IllegalArgumentException if a class is missing, a ceil exceeds the capacity or the
     *                                  assured rates add up to more than the capacity
     */
    public static LinkSpec of(long capacityBytesPerSecond, Map<ServiceClass, Shaping> classShares) {
        return of(capacityBytesPerSecond, defaultBurst(capacityBytesPerSecond), classShares, DEFAULT_CONTROL_BUFFER);
    }

    /**
     * A link with its own burst: the most bytes the pacer releases at once.
     *
     * @throws IllegalArgumentException as {@link #of(long, Map)}, and if the burst is less than one
     *                                  maximum frame or more than {@link Shaping#MAX_BURST}
     */
    public static LinkSpec of(long capacityBytesPerSecond, long burstBytes, Map<ServiceClass, Shaping> classShares,
                              int controlBuffer) {
        if (capacityBytesPerSecond <= 0) {
            throw new IllegalArgumentException("link capacity must be positive, got " + capacityBytesPerSecond + " B/s");
        }
        if (burstBytes < MAX_FRAME_BYTES || burstBytes > Shaping.MAX_BURST) {
            throw new IllegalArgumentException("link burst must hold one maximum frame (" + MAX_FRAME_BYTES
                    + " B) and at most " + Shaping.MAX_BURST + " B, got " + burstBytes + " B");
        }
        if (controlBuffer <= 0) {
            throw new IllegalArgumentException("link control buffer must be positive, got " + controlBuffer);
        }
        EnumMap<ServiceClass, Shaping> copy = new EnumMap<>(ServiceClass.class);
        long assured = 0;
        for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE}) {
            Shaping s = classShares.get(c);
            if (s == null) {
                throw new IllegalArgumentException("class " + c + " has no share on the link");
            }
            if (s.ceil() > capacityBytesPerSecond) {
                throw new IllegalArgumentException("class " + c + " ceil " + s.ceil() + " B/s exceeds the link capacity "
                        + capacityBytesPerSecond + " B/s");
            }
            assured += s.rate();
            copy.put(c, s);
        }
        if (assured > capacityBytesPerSecond) {
            throw new IllegalArgumentException("class rates add up to " + assured + " B/s, more than the link capacity "
                    + capacityBytesPerSecond + " B/s");
        }
        return new LinkSpec(capacityBytesPerSecond, burstBytes, copy, controlBuffer, false, false);
    }

    /** One pacing tick of the capacity plus one maximum frame: 1,484 B at 2 Mbit/s, 7,722 B at 1 Gbit/s. */
    public static long defaultBurst(long capacityBytesPerSecond) {
        long tick = (long) (capacityBytesPerSecond * (DEFAULT_BURST_NANOS / 1e9));
        return Math.min(Shaping.MAX_BURST, tick + MAX_FRAME_BYTES);
    }

    /**
     * Default shares: HRT 50 %, LRT 30 %, BE 20 % assured, each class may borrow up to the whole link.
     */
    public static LinkSpec withDefaultShares(long capacityBytesPerSecond) {
        Map<ServiceClass, Shaping> m = new EnumMap<>(ServiceClass.class);
        m.put(ServiceClass.HRT, Shaping.of(capacityBytesPerSecond / 2, capacityBytesPerSecond));
        // 30 percent without overflow at any capacity: divide first, then add the remainder's share.
        long lrt = capacityBytesPerSecond / 10 * 3 + capacityBytesPerSecond % 10 * 3 / 10;
        m.put(ServiceClass.LRT, Shaping.of(lrt, capacityBytesPerSecond));
        m.put(ServiceClass.BE, Shaping.of(capacityBytesPerSecond / 5, capacityBytesPerSecond));
        return of(capacityBytesPerSecond, m);
    }

    /**
     * A link whose classes are assured {@code hrt}, {@code lrt} and {@code be} percent of the
     * capacity (rounded down) and may each borrow up to all of it, as the broker's topology and a
     * router's link lines give them.
     *
     * @param burstBytes the pacer's burst, or 0 for the {@linkplain #defaultBurst default}
     * @throws IllegalArgumentException as {@link #of(long, long, Map, int)}, and if a share is outside
     *                                  0..100 or they add up to more than 100
     */
    public static LinkSpec ofPercent(long capacityBytesPerSecond, long hrt, long lrt, long be, long burstBytes) {
        if (hrt < 0 || hrt > 100 || lrt < 0 || lrt > 100 || be < 0 || be > 100) {
            throw new IllegalArgumentException("class shares must be 0..100 percent, got " + hrt + "/" + lrt + "/" + be);
        }
        if (hrt + lrt + be > 100) {
            throw new IllegalArgumentException("hrt + lrt + be add up to " + (hrt + lrt + be) + " percent, more than 100");
        }
        if (capacityBytesPerSecond <= 0) {
            throw new IllegalArgumentException("link capacity must be positive, got " + capacityBytesPerSecond + " B/s");
        }
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, Shaping.of(percentOf(capacityBytesPerSecond, hrt), capacityBytesPerSecond));
        shares.put(ServiceClass.LRT, Shaping.of(percentOf(capacityBytesPerSecond, lrt), capacityBytesPerSecond));
        shares.put(ServiceClass.BE, Shaping.of(percentOf(capacityBytesPerSecond, be), capacityBytesPerSecond));
        return of(capacityBytesPerSecond, burstBytes > 0 ? burstBytes : defaultBurst(capacityBytesPerSecond), shares,
                DEFAULT_CONTROL_BUFFER);
    }

    /** {@code percent} of {@code amount}, rounded down, exact for every amount up to {@link Long#MAX_VALUE}. */
    public static long percentOf(long amount, long percent) {
        return amount / 100 * percent + amount % 100 * percent / 100;
    }

    public long capacity() {
        return capacity;
    }

    /** The most bytes the pacer releases at once. */
    public long burst() {
        return burst;
    }

    public Shaping classShare(ServiceClass c) {
        return classes.get(c);
    }

    public int controlBuffer() {
        return controlBuffer;
    }

    /**
     * This link with its shaping left to the kernel (an HTB qdisc on the egress interface that
     * mirrors the class tree): its scheduler still orders events (control first, EDF, FIFO), drops
     * what expired and estimates demand, but releases every event at once; capacity and shares stay
     * what a rate policy reasons with.
     *
     * @param demandFromKernel each flow's demand is what the kernel's counters say its class took in
     *                         (given to the scheduler each period), not the arrivals counted here
     */
    public LinkSpec shapedInKernel(boolean demandFromKernel) {
        return new LinkSpec(capacity, burst, classes, controlBuffer, true, demandFromKernel);
    }

    /** {@link #shapedInKernel(boolean)} with demand from the arrivals counted here. */
    public LinkSpec shapedInKernel() {
        return shapedInKernel(false);
    }

    /** Whether each flow's demand comes from the kernel's counters; see {@link #shapedInKernel(boolean)}. */
    public boolean demandFromKernel() {
        return demandFromKernel;
    }

    /** Whether the kernel shapes this link; see {@link #shapedInKernel()}. */
    public boolean kernelShaped() {
        return shapedInKernel;
    }
}
