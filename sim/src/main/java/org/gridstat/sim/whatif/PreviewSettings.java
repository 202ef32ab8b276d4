package org.gridstat.sim.whatif;

import java.time.Duration;
import java.util.Objects;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.sim.scenario.Scenario;

/**
 * How a preview runs: the simulated duration (whole seconds, capped by the limits), the seed,
 * how the broker admits (its full test unless the broker being previewed runs by bandwidth alone)
 * and the congestion control the routers run, with the broker's minimum rates and ceilings.
 */
public record PreviewSettings(Duration duration, long seed, Scenario.Admission admission, Scenario.Congestion congestion,
                              PreviewLimits limits) {
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);

    /**
     * What a deployed broker and its routers run by default: full admission; congestion control
     * with notices to the publishers, the routers' default estimator (1 s, weight 0.5) and the
     * broker's default flow rates; no global adaptation (the preview asks what the routers
     * absorb before the broker re-plans).
     */
    public static final PreviewSettings DEFAULT = new PreviewSettings(DEFAULT_DURATION, 1, Scenario.Admission.FULL,
            new Scenario.Congestion(true, true, EstimatorSettings.DEFAULT, FlowRates.DEFAULT), PreviewLimits.DEFAULT);

    public PreviewSettings {
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(congestion, "congestion");
        Objects.requireNonNull(limits, "limits");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("the simulated duration must be positive, got " + duration);
        }
    }

    public PreviewSettings withDuration(Duration d) {
        return new PreviewSettings(d, seed, admission, congestion, limits);
    }

    public PreviewSettings withSeed(long s) {
        return new PreviewSettings(duration, s, admission, congestion, limits);
    }

    public PreviewSettings withAdmission(Scenario.Admission a) {
        return new PreviewSettings(duration, seed, a, congestion, limits);
    }

    public PreviewSettings withCongestion(Scenario.Congestion c) {
        return new PreviewSettings(duration, seed, admission, c, limits);
    }

    public PreviewSettings withLimits(PreviewLimits l) {
        return new PreviewSettings(duration, seed, admission, congestion, l);
    }

    /**
     * The duration a preview simulates at most: this one in whole seconds, rounded up, at most the
     * limits' cap (a preview of a busy network may simulate less: {@link PreviewLimits#maxCopies}).
     */
    public Duration cappedDuration() {
        return Duration.ofNanos(limits.capped(duration.toNanos()));
    }
}
