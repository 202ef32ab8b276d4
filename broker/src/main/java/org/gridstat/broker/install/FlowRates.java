package org.gridstat.broker.install;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.gridstat.core.model.ServiceClass;

/**
 * The minimum rate MR and ceiling CR the broker gives a flow of each class, relative to the
 * assured rate AR it reserves: congestion control never takes a victim below MR (DESIGN.md §5),
 * and a flow may borrow, or be granted, up to CR. The defaults follow the CCC thesis's testbed,
 * where flows start at their assured rate: HRT flows keep all of it (they are never victims),
 * LRT flows half, best effort a tenth; every class may reach twice its reservation.
 *
 * @param minimum per data class, MR as a fraction of AR, in [0, 1]
 * @param ceiling per data class, CR as a multiple of AR, at least 1
 */
public record FlowRates(Map<ServiceClass, Double> minimum, Map<ServiceClass, Double> ceiling) {
    private static final ServiceClass[] DATA = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};

    public static final FlowRates DEFAULT = new FlowRates(
            Map.of(ServiceClass.HRT, 1.0, ServiceClass.LRT, 0.5, ServiceClass.BE, 0.1),
            Map.of(ServiceClass.HRT, 2.0, ServiceClass.LRT, 2.0, ServiceClass.BE, 2.0));

    public FlowRates {
        Objects.requireNonNull(minimum, "minimum");
        Objects.requireNonNull(ceiling, "ceiling");
        for (ServiceClass c : DATA) {
            Double m = minimum.get(c);
            Double x = ceiling.get(c);
            if (m == null || !(m >= 0 && m <= 1)) {
                throw new IllegalArgumentException(c + " minimum rate must be 0..100 % of the assured rate, got " + m);
            }
            if (x == null || !(x >= 1 && x <= 1_000)) {
                throw new IllegalArgumentException(c + " ceiling must be 1..1000 times the assured rate, got " + x);
            }
        }
        minimum = Map.copyOf(minimum);
        ceiling = Map.copyOf(ceiling);
    }

    /** These rates with one class's minimum fraction and ceiling multiple replaced. */
    public FlowRates with(ServiceClass c, double minimumFraction, double ceilingMultiple) {
        Map<ServiceClass, Double> m = new EnumMap<>(minimum);
        Map<ServiceClass, Double> x = new EnumMap<>(ceiling);
        m.put(c, minimumFraction);
        x.put(c, ceilingMultiple);
        return new FlowRates(m, x);
    }

    /** MR for a flow of class {@code c} assured {@code assured} B/s, rounded down. */
    public long minimumOf(ServiceClass c, long assured) {
        return (long) Math.floor(assured * minimum.get(c));
    }

    /** CR for a flow of class {@code c} assured {@code assured} B/s, rounded up, at least 1 B/s. */
    public long ceilingOf(ServiceClass c, long assured) {
        return Math.max(1, Math.max(assured, (long) Math.ceil(assured * ceiling.get(c))));
    }
}
