package org.gridstat.core.sched;

import java.util.EnumMap;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;

/**
 * An out-link's capacity and the HTB shares of its three data classes. The link is paced to its
 * capacity; control traffic is served first and counts against the capacity but no class.
 */
public final class LinkSpec {
    /** Control events queued at most; more are dropped and counted. */
    public static final int DEFAULT_CONTROL_BUFFER = 256;

    private final long capacity;
    private final long burst;
    private final Map<ServiceClass, Shaping> classes;
    private final int controlBuffer;

    private LinkSpec(long capacity, long burst, Map<ServiceClass, Shaping> classes, int controlBuffer) {
        this.capacity = capacity;
        this.burst = burst;
        this.classes = classes;
        this.controlBuffer = controlBuffer;
    }

    /**
     * A link of {@code capacityBytesPerSecond} whose classes are given their shares.
     *
     * @throws IllegalArgumentException if a class is missing, a ceil exceeds the capacity or the
     *                                  assured rates add up to more than the capacity
     */
    public static LinkSpec of(long capacityBytesPerSecond, Map<ServiceClass, Shaping> classShares) {
        return of(capacityBytesPerSecond, Shaping.defaultBurst(capacityBytesPerSecond), classShares, DEFAULT_CONTROL_BUFFER);
    }

    public static LinkSpec of(long capacityBytesPerSecond, long burstBytes, Map<ServiceClass, Shaping> classShares,
                              int controlBuffer) {
        if (capacityBytesPerSecond <= 0) {
            throw new IllegalArgumentException("link capacity must be positive, got " + capacityBytesPerSecond + " B/s");
        }
        if (burstBytes <= 0 || controlBuffer <= 0) {
            throw new IllegalArgumentException("link burst and control buffer must be positive");
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
        return new LinkSpec(capacityBytesPerSecond, burstBytes, copy, controlBuffer);
    }

    /**
     * Default shares: HRT 50 %, LRT 30 %, BE 20 % assured, each class may borrow up to the whole link.
     */
    public static LinkSpec withDefaultShares(long capacityBytesPerSecond) {
        Map<ServiceClass, Shaping> m = new EnumMap<>(ServiceClass.class);
        m.put(ServiceClass.HRT, Shaping.of(capacityBytesPerSecond / 2, capacityBytesPerSecond));
        m.put(ServiceClass.LRT, Shaping.of(capacityBytesPerSecond * 3 / 10, capacityBytesPerSecond));
        m.put(ServiceClass.BE, Shaping.of(capacityBytesPerSecond / 5, capacityBytesPerSecond));
        return of(capacityBytesPerSecond, m);
    }

    public long capacity() {
        return capacity;
    }

    public long burst() {
        return burst;
    }

    public Shaping classShare(ServiceClass c) {
        return classes.get(c);
    }

    public int controlBuffer() {
        return controlBuffer;
    }
}
